// Builds the app (electron-vite: out/main, out/preload, out/renderer) when the build is missing
// or older than its sources, so `npm start` and `npm test` work on a fresh clone and after edits
// without a separate `npm run build`. Tests do not go into the build, so they do not count.
import { spawnSync } from "node:child_process";
import { type Dirent, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = ["main", "preload", "renderer", "plugins/sdk", "resources"];
const CONFIG = ["package.json", "package-lock.json", "electron.vite.config.ts", "tsconfig.json"];
const OUTPUTS = ["out/main/index.js", "out/preload/index.cjs", "out/renderer/index.html"];

function mtime(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

function newestSource(root: string): number {
  let newest = 0;
  for (const file of CONFIG) newest = Math.max(newest, mtime(join(root, file)) ?? 0);
  for (const dir of SOURCES) {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, dir), { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile() || /\.test\.tsx?$/.test(entry.name)) continue;
      newest = Math.max(newest, mtime(join(entry.parentPath, entry.name)) ?? 0);
    }
  }
  return newest;
}

/** Why the build must be made again, or null when it is up to date. */
export function staleBecause(root = ROOT): string | null {
  const built = OUTPUTS.map((file) => ({ file, time: mtime(join(root, file)) }));
  const missing = built.find(({ time }) => time === null);
  if (missing) return `${missing.file} is missing`;
  const oldest = Math.min(...built.map(({ time }) => time ?? 0));
  return newestSource(root) > oldest ? "sources changed since the last build" : null;
}

/** Builds when needed; exits with the build's status if it fails. */
export function buildIfStale(root = ROOT): void {
  const why = staleBecause(root);
  if (why === null) return;
  console.log(`Building the app (${why})…`);
  const build = spawnSync(
    process.execPath,
    [join(root, "node_modules", "electron-vite", "bin", "electron-vite.js"), "build"],
    { cwd: root, stdio: "inherit" },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
