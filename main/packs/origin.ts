/**
 * `.origin.yaml`, the sidecar of a pack installed from git (seed 000): where it came from (URL,
 * ref, subpath), the commit installed, when, and whether npm dependencies were vendored. Written
 * atomically; read leniently (unknown fields ignored) but every field it uses is checked, since
 * update feeds them to git: a half-written or hand-edited file is one line naming file and field.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify } from "yaml";
import { ORIGIN_FILE } from "../code-plugins/loader/origin-scope.ts";
import { describeValue, isMap, readYaml } from "../code-plugins/loader/yaml-errors.ts";
import { checkRef, checkSubpath, parseSource } from "./source.ts";
import { PackError, type PackOrigin } from "./types.ts";

export { ORIGIN_FILE };

export function originFile(packDir: string): string {
  return path.join(packDir, ORIGIN_FILE);
}

const HEADER = "# Written by `islet plugins add` and `update`: where this pack came from.\n";

export async function writeOrigin(packDir: string, origin: PackOrigin): Promise<void> {
  const data = {
    url: origin.url,
    ...(origin.ref ? { ref: origin.ref } : {}),
    ...(origin.subpath ? { subpath: origin.subpath } : {}),
    commit: origin.commit,
    installed_at: origin.installedAt,
    ...(origin.updatedAt ? { updated_at: origin.updatedAt } : {}),
    ...(origin.addedAt && Object.keys(origin.addedAt).length > 0
      ? { added_at: origin.addedAt }
      : {}),
    vendored: origin.vendored,
    ...(origin.listedBy ? { listed_by: origin.listedBy } : {}),
    ...(origin.claudeEntry ? { claude_entry: origin.claudeEntry } : {}),
  };
  const file = originFile(packDir);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, HEADER + stringify(data));
  await rename(tmp, file);
}

/** Whether the pack has a sidecar at all (a folder copied from a path or made by hand has none). */
export async function hasOrigin(packDir: string): Promise<boolean> {
  try {
    await readFile(originFile(packDir));
    return true;
  } catch {
    return false;
  }
}

const REINSTALL = "fix the file, or reinstall: islet plugins remove, then add";

function field(file: string, name: string, problem: string): PackError {
  return new PackError({ source: "packs", file, title: `${name}: ${problem}`, cause: REINSTALL });
}

function isoTime(
  file: string,
  name: string,
  value: unknown,
  required: boolean,
): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw field(file, name, "missing, expected a time like 2026-11-24T10:00:00Z");
    return undefined;
  }
  const text = value instanceof Date ? value.toISOString() : value;
  if (typeof text !== "string" || Number.isNaN(Date.parse(text)))
    throw field(
      file,
      name,
      `expected a time like 2026-11-24T10:00:00Z, got ${describeValue(value)}`,
    );
  return new Date(text).toISOString();
}

/** `added_at`: a map of plugin names to times, or absent. */
function addedTimes(file: string, value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isMap(value))
    throw field(
      file,
      "added_at",
      `expected a map of plugin names to times, got ${describeValue(value)}`,
    );
  // Own properties whatever the names (a plugin named __proto__ included).
  return Object.fromEntries(
    Object.entries(value).map(([name, time]) => [
      name,
      isoTime(file, `added_at.${name}`, time, true)!,
    ]),
  );
}

/** Reads and checks the sidecar; every problem is a PackError naming the file and field. */
export async function readOrigin(packDir: string): Promise<PackOrigin> {
  const file = originFile(packDir);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new PackError({ source: "packs", file, title: "cannot read", cause: code });
  }
  const read = readYaml(text, file, "packs");
  if (!read.ok) throw new PackError({ ...read.error, cause: REINSTALL });
  const data = read.data;
  if (!isMap(data))
    throw field(file, "(top)", `expected a map of fields, got ${describeValue(data)}`);

  if (typeof data.url !== "string" || data.url.trim() === "")
    throw field(file, "url", `missing, expected the git URL it was installed from`);
  let url: string;
  try {
    const source = await parseSource(data.url, { cwd: packDir });
    if (source.kind !== "git") throw new PackError("a folder, not a git URL");
    url = source.url;
  } catch (err) {
    throw field(file, "url", (err as Error).message);
  }
  const commit = data.commit;
  if (typeof commit !== "string" || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commit))
    throw field(file, "commit", `expected a full commit hash, got ${describeValue(commit)}`);
  let ref: string | undefined;
  if (data.ref !== undefined && data.ref !== null) {
    const r = typeof data.ref === "number" ? String(data.ref) : data.ref;
    if (typeof r !== "string")
      throw field(file, "ref", `expected a branch, tag or commit, got ${describeValue(data.ref)}`);
    try {
      ref = checkRef(r, "ref");
    } catch (err) {
      throw field(file, "ref", (err as Error).message.replace(/^ref: /, ""));
    }
  }
  let subpath: string | undefined;
  if (data.subpath !== undefined && data.subpath !== null) {
    if (typeof data.subpath !== "string")
      throw field(
        file,
        "subpath",
        `expected a folder inside the repository, got ${describeValue(data.subpath)}`,
      );
    try {
      subpath = checkSubpath(data.subpath, "subpath");
    } catch (err) {
      throw field(file, "subpath", (err as Error).message.replace(/^subpath: /, ""));
    }
  }
  if (data.vendored !== undefined && typeof data.vendored !== "boolean")
    throw field(file, "vendored", `expected true or false, got ${describeValue(data.vendored)}`);
  const installedAt = isoTime(file, "installed_at", data.installed_at, true)!;
  const updatedAt = isoTime(file, "updated_at", data.updated_at, false);
  const addedAt = addedTimes(file, data.added_at);
  return {
    url,
    ...(ref ? { ref } : {}),
    ...(subpath ? { subpath } : {}),
    commit,
    installedAt,
    ...(updatedAt ? { updatedAt } : {}),
    ...(addedAt ? { addedAt } : {}),
    vendored: data.vendored ?? true,
    ...(typeof data.listed_by === "string" ? { listedBy: data.listed_by } : {}),
    ...(isMap(data.claude_entry) ? { claudeEntry: data.claude_entry } : {}),
  };
}
