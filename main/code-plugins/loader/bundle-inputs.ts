/**
 * Files that shape a bundle without being modules in it: the plugin's tsconfig.json (compiler
 * options) and the package.json of every package a module came from (main/module/exports, type).
 * Tracked with the modules so editing them invalidates the cached bundle.
 */
import { access } from "node:fs/promises";
import path from "node:path";

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** Nearest package.json at or above `dir`, stopping at `stop` (inclusive) or the file-system root. */
async function nearestPackageJson(
  dir: string,
  stop: string,
  memo: Map<string, string | null>,
): Promise<string | null> {
  const known = memo.get(dir);
  if (known !== undefined) return known;
  const candidate = path.join(dir, "package.json");
  let found: string | null;
  if (await exists(candidate)) found = candidate;
  else if (dir === stop || path.dirname(dir) === dir) found = null;
  else found = await nearestPackageJson(path.dirname(dir), stop, memo);
  memo.set(dir, found);
  return found;
}

/**
 * Always the plugin's tsconfig.json and package.json (tracked even when absent, so creating one
 * is noticed), plus each input's package manifest.
 */
export async function trackedFilesFor(pluginDir: string, inputs: string[]): Promise<string[]> {
  const out = new Set([
    path.join(pluginDir, "tsconfig.json"),
    path.join(pluginDir, "package.json"),
  ]);
  const memo = new Map<string, string | null>();
  for (const input of inputs) {
    const inside = !path.relative(pluginDir, input).startsWith("..");
    const pkg = await nearestPackageJson(
      path.dirname(input),
      inside ? pluginDir : path.parse(input).root,
      memo,
    );
    if (pkg) out.add(pkg);
  }
  return [...out];
}
