/**
 * Which app the e2e specs drive — the one place that decides. `serve`: `islet serve` in Debian's
 * Chromium. `electron`: the built desktop app (out/main/index.js) through playwright-core's
 * `_electron`. ISLET_E2E_TARGET=serve|electron chooses; unset, Electron where its binary exists,
 * else serve. A spec that needs a side channel only `islet serve` has (its WebSocket, a second
 * browser tab, a second server) declares it with `serveOnly` and is skipped on Electron.
 */
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { findChromium, ROOT } from "./browser.ts";

export type Found = { path: string } | { missing: string };

export type E2eTarget =
  /** `why`: what made it serve (an Electron-only spec's skip says it). */
  { name: "serve"; chromium: Found; why: string } | { name: "electron"; electron: Found };

/** Whether a file exists and may be run. */
function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Electron binary, found without require("electron") (which throws, or downloads on install):
 * ELECTRON_EXEC_PATH, else what the electron package's path.txt names under its dist folder
 * (ELECTRON_OVERRIDE_DIST_PATH, as the package itself reads it).
 */
export function findElectron(
  env: NodeJS.ProcessEnv = process.env,
  root: string = ROOT,
  isExecutable: (file: string) => boolean = executable,
): Found {
  const explicit = env.ELECTRON_EXEC_PATH;
  if (explicit)
    return isExecutable(explicit)
      ? { path: explicit }
      : { missing: `ELECTRON_EXEC_PATH (${explicit}) is not an executable file` };
  const pkg = path.join(root, "node_modules", "electron");
  const pathTxt = path.join(pkg, "path.txt");
  if (!existsSync(pathTxt))
    return {
      missing: `${path.relative(root, pathTxt)} is missing: the electron package's download did not happen, or set ELECTRON_EXEC_PATH`,
    };
  const binary = path.join(
    env.ELECTRON_OVERRIDE_DIST_PATH || path.join(pkg, "dist"),
    readFileSync(pathTxt, "utf8").trim(),
  );
  return isExecutable(binary) ? { path: binary } : { missing: `${binary} is not executable` };
}

/** The target for this environment; a value of ISLET_E2E_TARGET other than the two is an error. */
export function decideTarget(
  env: NodeJS.ProcessEnv,
  find: { electron: () => Found; chromium: () => Found },
): E2eTarget {
  const asked = env.ISLET_E2E_TARGET?.trim() ?? "";
  if (asked !== "" && asked !== "serve" && asked !== "electron")
    throw new Error(`ISLET_E2E_TARGET=${asked} is not a target: use serve or electron`);
  if (asked === "serve")
    return { name: "serve", chromium: find.chromium(), why: "ISLET_E2E_TARGET=serve" };
  const electron = find.electron();
  if (asked === "electron" || "path" in electron) return { name: "electron", electron };
  return {
    name: "serve",
    chromium: find.chromium(),
    why: `no Electron binary: ${electron.missing}`,
  };
}

/**
 * Why a spec cannot run on `target`, or false. `serveOnly`: what it needs that only `islet serve`
 * has; `electronOnly`: it tests the desktop app itself; `browser: false`: it needs no Chromium.
 */
export function skipReason(
  target: E2eTarget,
  spec: { serveOnly?: string; electronOnly?: boolean; browser?: boolean } = {},
): string | false {
  if (target.name === "serve") {
    if (spec.electronOnly) return `Electron only, and the target is islet serve — ${target.why}`;
    if (spec.browser !== false && "missing" in target.chromium) return target.chromium.missing;
    return false;
  }
  if (spec.serveOnly) return `islet serve only (${spec.serveOnly}): not run on the Electron target`;
  return "missing" in target.electron ? `no Electron binary: ${target.electron.missing}` : false;
}

/** This run's target. */
export const target: E2eTarget = decideTarget(process.env, {
  electron: () => findElectron(),
  chromium: findChromium,
});

/** For a spec that runs on either target. */
export const skipOnThisTarget = skipReason(target);

/** For a spec that needs what only `islet serve` has (`why` says what), skipped on Electron. */
export function serveOnly(why: string, opts: { browser?: boolean } = {}): string | false {
  return skipReason(target, { serveOnly: why, ...opts });
}

/** For a spec of the desktop app itself. */
export function electronOnly(): string | false {
  return skipReason(target, { electronOnly: true });
}
