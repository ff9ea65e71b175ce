// Lint rules for Islet's layering (docs/architecture.md "Floors"), as a local ESLint plugin:
//
//   islet/layers   which file may import which. Every folder of main/ stands on a floor
//                  (scripts/floors.ts): it imports only its own floor and the floors below it.
//                  Some floors also keep Node and npm out (they are bundled for a browser page).
//                  The renderer and the preload are not floors: they reach the engine only
//                  through the bridge contract (RENDERER_SIDE below).
//   islet/raw-ipc  ipcMain/ipcRenderer only in main/electron/bridge.ts and preload/index.ts; every
//                  other file goes through the typed bridge.
//
// Tests (*.test.ts) may import any floor: a test beside its code drives the feature through the
// real engine. Test kits (testing.ts, testing/) stand on their floor like any other file.
// main/layering.test.ts lints violating snippets through eslint.config.js to prove both fire.
import { isBuiltin } from "node:module";
import path from "node:path";
import { floorOf } from "./floors.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

const NO_NODE = "it is bundled for a sandbox or a browser page, where Node is not available";

/**
 * The two folders outside the floors. `allow`: the only repo paths they may import (their own
 * folder always); `typeOnly`: repo paths they may import for their types alone; `packages`: when
 * set, the only npm packages; `node: false`: no Node built-ins.
 */
export const RENDERER_SIDE = [
  {
    from: "renderer/",
    allow: [
      "main/bridge/contract.ts",
      "main/bridge/names.ts",
      "main/bridge/protocol.ts",
      "main/core/",
      "main/host/",
    ],
    typeOnly: ["plugins/sdk/"],
    node: false,
    why: "the UI reaches the engine only through the bridge contract",
  },
  {
    from: "preload/",
    allow: ["main/bridge/names.ts"],
    typeOnly: ["main/bridge/contract.ts"],
    packages: ["electron"],
    node: false,
    why: "the sandboxed preload whitelists the contract's names (zod stays out of it)",
  },
];

const IPC_ALLOWED = ["main/electron/bridge.ts", "preload/index.ts", "main/electron/testing/"];

const under = (file, prefix) => (prefix.endsWith("/") ? file.startsWith(prefix) : file === prefix);
const repoPath = (abs) => path.relative(ROOT, abs).split(path.sep).join("/");

/** The repo path an import names, or null for a package. */
function target(file, spec) {
  if (spec === "@islet/sdk" || spec.startsWith("@islet/sdk/")) return "plugins/sdk/index.ts";
  if (!spec.startsWith(".")) return null;
  return repoPath(path.resolve(ROOT, path.dirname(file), spec));
}

function packageName(spec) {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function isTypeOnly(node) {
  if (node.importKind === "type" || node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  return (
    specifiers.length > 0 &&
    specifiers.every((s) => s.importKind === "type" || s.exportKind === "type")
  );
}

const isTest = (file) => /\.test\.tsx?$/.test(file);

function packageProblem(from, spec, rules) {
  if (spec.startsWith("node:") || isBuiltin(spec)) {
    if (rules.node === false) return `${from} must not import Node's "${spec}": ${NO_NODE}`;
    return null;
  }
  if (rules.packages && !rules.packages.includes(packageName(spec)))
    return `${from} may import only ${rules.packages.join(", ")} from npm, not "${spec}" (${rules.why ?? rules.what})`;
  return null;
}

/** A renderer or preload file importing `spec`. */
function sideProblem(side, file, spec, typeOnly) {
  const to = target(file, spec);
  if (to === null) return isTest(file) ? null : packageProblem(side.from, spec, side);
  if (under(to, side.from)) return null;
  if (side.allow.some((p) => under(to, p))) return null;
  if (side.typeOnly?.some((p) => under(to, p)))
    return typeOnly ? null : `${side.from} may import ${to} for types only (use "import type")`;
  return `${side.from} must not import ${to}: ${side.why}`;
}

/** A file on `floor` importing `spec`. */
function floorProblem(floor, file, spec) {
  const to = target(file, spec);
  if (to === null) return isTest(file) ? null : packageProblem(floor.path, spec, floor);
  if (isTest(file)) return null;
  const other = floorOf(to);
  if (!other || other.index <= floor.index) return null;
  return `${floor.path} must not import ${to}: ${other.path} is a floor above it (a floor imports only floors below it; scripts/floors.ts)`;
}

const layers = {
  meta: {
    type: "problem",
    docs: {
      description:
        "Keeps imports on the floors (scripts/floors.ts) and the renderer on the contract.",
    },
    schema: [],
  },
  create(context) {
    const file = repoPath(context.filename);
    const side = RENDERER_SIDE.find((l) => under(file, l.from));
    const floor = side ? null : floorOf(file);
    if (!side && !floor) return {};
    const check = (node, source, typeOnly) => {
      if (typeof source?.value !== "string") return;
      const message = side
        ? sideProblem(side, file, source.value, typeOnly)
        : floorProblem(floor, file, source.value);
      if (message) context.report({ node: source, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportNamedDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === "type"),
      ImportExpression: (node) => check(node, node.source, false),
    };
  },
};

const rawIpc = {
  meta: {
    type: "problem",
    docs: { description: "ipcMain and ipcRenderer only in the two bridge files." },
    schema: [],
  },
  create(context) {
    const file = repoPath(context.filename);
    if (IPC_ALLOWED.some((p) => under(file, p))) return {};
    const report = (node, name) =>
      context.report({
        node,
        message: `raw ${name} is only for main/electron/bridge.ts and preload/index.ts; add a call to the bridge contract instead (main/bridge/README.md)`,
      });
    const isIpc = (name) => name === "ipcMain" || name === "ipcRenderer";
    return {
      ImportSpecifier(node) {
        const name = node.imported.name ?? node.imported.value;
        if (isIpc(name)) report(node, name);
      },
      MemberExpression(node) {
        const name = node.property.type === "Identifier" ? node.property.name : node.property.value;
        if (!node.computed || node.property.type === "Literal") if (isIpc(name)) report(node, name);
      },
    };
  },
};

export default { meta: { name: "islet" }, rules: { layers, "raw-ipc": rawIpc } };
