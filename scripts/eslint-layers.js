// Lint rules for Islet's layering (README "Layering"), as a local ESLint plugin:
//
//   islet/layers   which folder may import which: each import is resolved to a file in the repo
//                  and checked against LAYERS below (leaves import nothing from main/, the
//                  renderer only the contract, providers never the agent, …).
//   islet/raw-ipc  ipcMain/ipcRenderer only in main/electron/bridge.ts and preload/index.ts; every
//                  other file goes through the typed bridge.
//
// main/layering.test.ts lints violating snippets through eslint.config.js to prove both fire.
import { isBuiltin } from "node:module";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

const NO_NODE = "it is bundled for a sandbox or a browser page, where Node is not available";

/**
 * `from`: the files a layer covers (a folder ends with "/"). Either `allow` (the only repo paths
 * it may import; its own folder is always allowed) or `deny` (repo paths it must not import).
 * `typeOnly`: repo paths it may import for their types alone. `packages`: when set, the only npm
 * packages it may import. `node: false`: no Node built-ins (tests excepted).
 */
export const LAYERS = [
  {
    from: "main/core/",
    allow: [],
    typeOnly: ["plugins/sdk/"],
    packages: ["zod"],
    node: false,
    why: "main/core/ is a leaf (the engine, the bridge contract and the renderer share it)",
  },
  {
    from: "main/host/",
    allow: [],
    typeOnly: ["plugins/sdk/"],
    packages: ["zod"],
    node: false,
    why: "main/host/ is a leaf (the bridge contract and the renderer use its schemas)",
  },
  {
    from: "main/providers/",
    deny: [
      "main/turn/",
      "main/engine/",
      "main/bridge/",
      "main/cli/",
      "main/serve/",
      "main/electron/",
    ],
    why: "providers only speak to models; the agent and its hosts sit above them",
  },
  {
    from: "main/turn/",
    deny: ["main/engine/", "main/bridge/", "main/cli/", "main/serve/", "main/electron/"],
    why: "the agent loop does not know its host (engine, bridge, CLI, serve, Electron)",
  },
  {
    from: "main/bridge/",
    deny: ["main/cli/", "main/electron/"],
    why: "the bridge is transport-free: the CLI and Electron use it, not the other way round",
  },
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

function problem(layer, file, spec, typeOnly) {
  if (spec.startsWith("node:") || isBuiltin(spec)) {
    if (layer.node === false && !/\.test\.tsx?$/.test(file))
      return `${layer.from} must not import Node's "${spec}": ${NO_NODE}`;
    return null;
  }
  const to = target(file, spec);
  if (to === null) {
    if (layer.packages && !layer.packages.includes(packageName(spec)))
      return `${layer.from} may import only ${layer.packages.join(", ")} from npm, not "${spec}" (${layer.why})`;
    return null;
  }
  if (under(to, layer.from)) return null;
  if (layer.deny?.some((p) => under(to, p)))
    return `${layer.from} must not import ${to}: ${layer.why}`;
  if (!layer.allow) return null;
  if (layer.allow.some((p) => under(to, p))) return null;
  if (layer.typeOnly?.some((p) => under(to, p)))
    return typeOnly ? null : `${layer.from} may import ${to} for types only (use "import type")`;
  return `${layer.from} must not import ${to}: ${layer.why}`;
}

const layers = {
  meta: {
    type: "problem",
    docs: { description: "Keeps imports in the direction the architecture allows (LAYERS)." },
    schema: [],
  },
  create(context) {
    const file = repoPath(context.filename);
    const layer = LAYERS.find((l) => under(file, l.from));
    if (!layer) return {};
    const check = (node, source, typeOnly) => {
      if (typeof source?.value !== "string") return;
      const message = problem(layer, file, source.value, typeOnly);
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
