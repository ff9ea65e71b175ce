#!/usr/bin/env node
// `npm start`: build with electron-vite, then launch the Electron app.
// The Electron binary is located WITHOUT require('electron') (which would try to download it):
// ELECTRON_EXEC_PATH, else node_modules/electron/path.txt (+ ELECTRON_OVERRIDE_DIST_PATH).
// Where it is missing (offline build machines), print one clear line and exit 1.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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

const found = findElectron();
if (!("path" in found)) {
  console.error(
    `islet: the Electron binary is not installed (${found.missing} not found), so the desktop app ` +
      "cannot start here; run `npm run build && npx islet serve` and open the printed URL for the same UI in a browser, or `npx islet run 'your prompt'` headless.",
  );
  process.exit(1);
}
const electron = found.path;

const build = spawnSync(
  process.execPath,
  [join(root, "node_modules", "electron-vite", "bin", "electron-vite.js"), "build"],
  { cwd: root, stdio: "inherit" },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const child = spawn(electron, [root, ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => {
  console.error(`islet: could not launch Electron (${electron}): ${error.message}`);
  process.exit(1);
});
child.on("exit", (code, signal) => process.exit(signal === null ? (code ?? 0) : 1));
