/**
 * A git pack installed with `--subpath` (seed 000 "Install from git") holds the whole repository,
 * but only the plugins under the subpath count. Its `.origin.yaml` says which; discovery reads
 * just that field here (the pack manager reads the rest). A sidecar that cannot be read, or a
 * subpath that leads outside the pack, is a load error for that pack alone: loading anything else
 * from it could load plugins the user never asked for.
 */
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import type { Problem } from "../../host/problem.ts";
import { describeValue, isMap, problemIn, readYaml } from "./yaml-errors.ts";

export const ORIGIN_FILE = ".origin.yaml";

export type OriginScope =
  | {
      folder: string;
      /** A Claude Code plugin installed from a marketplace's entry: the entry, as recorded. */
      claudeEntry?: Record<string, unknown>;
      /** When the pack was installed (`installed_at`), if the sidecar says so. */
      installedAt?: string;
      /** When updates brought the plugins they added, by name (`added_at`). */
      addedAt?: Record<string, string>;
    }
  | { error: Problem };

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
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    return { error: problemIn(file, "cannot read", code) };
  }
  const fix = "reinstall the pack (islet plugins remove, then add) or fix the file";
  // In parentheses after the problem, as every line about a pack's sidecar says it.
  const fail = (problem: Problem) => ({ error: { ...problem, cause: fix } });
  const read = readYaml(text, file);
  if (!read.ok) return fail(read.error);
  const data = read.data ?? {};
  if (!isMap(data))
    return fail(problemIn(file, `expected a map of fields, got ${describeValue(data)}`));
  const entry = data.claude_entry;
  const claudeEntry = isMap(entry) ? { claudeEntry: entry } : {};
  // Only an order among packs (which of two same-named plugins loads): read leniently.
  const installed = data.installed_at;
  const added = isMap(data.added_at) ? data.added_at : {};
  const addedAt = Object.fromEntries(
    Object.entries(added).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  const known = {
    ...claudeEntry,
    ...(typeof installed === "string" ? { installedAt: installed } : {}),
    ...(Object.keys(addedAt).length > 0 ? { addedAt } : {}),
  };
  const subpath = data.subpath;
  if (subpath === undefined || subpath === null || subpath === "")
    return { folder: packDir, ...known };
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
    return fail(
      problemIn(file, `subpath: expected a folder inside the pack, got ${describeValue(subpath)}`),
    );
  const folder = path.join(packDir, ...parts);
  try {
    const [outer, inner] = await Promise.all([realpath(packDir), realpath(folder)]);
    if (!isInside(outer, inner))
      return fail(
        problemIn(file, `subpath: "${subpath}" leads outside the pack through a symlink`),
      );
  } catch {
    return fail(problemIn(file, `subpath: "${subpath}" does not exist in ${packDir}`));
  }
  return { folder, ...known };
}
