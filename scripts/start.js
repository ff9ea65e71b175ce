#!/usr/bin/env node
// `npm start`: the desktop app, built first when the build is missing or stale. Where there is no
// Electron binary (offline build machines, CI), the same UI through `islet serve --open` in the
// browser instead, with the URL printed. The Electron binary is located WITHOUT
// require('electron') (which would try to download it): ELECTRON_EXEC_PATH, else
// node_modules/electron/path.txt (+ ELECTRON_OVERRIDE_DIST_PATH).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { requireNode } from "./check-node.js";

requireNode();
const { buildIfStale } = await import("./build-if-stale.ts");
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** @returns {{ path: string } | { missing: string }} */
function findElectron() {
  const explicit = process.env.ELECTRON_EXEC_PATH;
  if (explicit) {
    return existsSync(explicit)
      ? { path: explicit }
      : { missing: `ELECTRON_EXEC_PATH=${explicit}` };
  }
  const pkgDir = join(root, "node_modules", "electron");
  const pathFile = join(pkgDir, "path.txt");
  const relative = existsSync(pathFile) ? readFileSync(pathFile, "utf8").trim() : "";
  if (relative === "") return { missing: "node_modules/electron/path.txt" };
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(pkgDir, "dist");
  const binary = join(distDir, relative);
  return existsSync(binary) ? { path: binary } : { missing: binary };
}

/** Runs it with this terminal, passing Ctrl-C on, and ends as it ends. */
function runChild(command, args, what) {
  const child = spawn(command, args, { cwd: root, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    console.error(`islet: could not launch ${what} (${command}): ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(signal === null ? (code ?? 0) : 0));
}

buildIfStale();
const found = findElectron();
const args = process.argv.slice(2);
if ("path" in found) {
  runChild(found.path, [root, ...args], "Electron");
} else {
  console.log(
    `No Electron binary here (${found.missing} not found): serving the same app to your ` +
      "browser instead. Ctrl-C stops it.",
  );
  const islet = join(root, "bin", "islet.js");
  runChild(
    process.execPath,
    ["--no-node-snapshot", islet, "serve", "--open", ...args],
    "islet serve",
  );
}
