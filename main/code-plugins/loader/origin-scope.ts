/**
 * A git pack installed with `--subpath` (seed 000 "Install from git") holds the whole repository,
 * but only the plugins under the subpath count. Its `.origin.yaml` says which; discovery reads
 * just that field here (the pack manager reads the rest). A sidecar that cannot be read, or a
 * subpath that leads outside the pack, is a load error for that pack alone: loading anything else
 * from it could load plugins the user never asked for.
 */
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { describeValue, isMap, readYaml } from "./yaml-errors.ts";

export const ORIGIN_FILE = ".origin.yaml";

export type OriginScope = { folder: string } | { error: string };

/** Whether `inner` is `outer` or inside it (both real paths). */
export function isInside(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The folder of `packDir` whose plugins count: the pack itself, or its subpath. */
export async function originScope(packDir: string): Promise<OriginScope> {
  const file = path.join(packDir, ORIGIN_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    return {
      error: `${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    };
  }
  const read = readYaml(text, file);
  const fix = "reinstall the pack (islet plugins remove, then add) or fix the file";
  if (!read.ok) return { error: `${read.error} (${fix})` };
  const data = read.data ?? {};
  if (!isMap(data))
    return { error: `${file}: expected a map of fields, got ${describeValue(data)} (${fix})` };
  const subpath = data.subpath;
  if (subpath === undefined || subpath === null || subpath === "") return { folder: packDir };
  const parts =
    typeof subpath === "string"
      ? subpath
          .replace(/\\/g, "/")
          .split("/")
          .filter((p) => p && p !== ".")
      : [];
  if (
    typeof subpath !== "string" ||
    path.isAbsolute(subpath) ||
    /^[A-Za-z]:/.test(subpath) ||
    parts.includes("..")
  )
    return {
      error: `${file}: subpath: expected a folder inside the pack, got ${describeValue(subpath)} (${fix})`,
    };
  const folder = path.join(packDir, ...parts);
  try {
    const [outer, inner] = await Promise.all([realpath(packDir), realpath(folder)]);
    if (!isInside(outer, inner))
      return {
        error: `${file}: subpath: "${subpath}" leads outside the pack through a symlink (${fix})`,
      };
  } catch {
    return { error: `${file}: subpath: "${subpath}" does not exist in ${packDir} (${fix})` };
  }
  return { folder };
}
