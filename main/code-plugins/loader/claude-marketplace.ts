/**
 * A Claude Code marketplace (`.claude-plugin/marketplace.json`) read as Claude Code reads it, for
 * the walk that finds plugins, the pack installer and the catalog: each entry whose `source` is a
 * folder of the repository is a plugin there, with or without its own plugin.json (the entry then
 * names it and, with `strict: false`, says what it holds); an entry whose source is another
 * repository (`github`, `url`, `git-subdir`) is listed as remote. Read leniently: a broken entry
 * costs only itself, in one line.
 */
import { existsSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import type { Problem } from "../../host/problem.ts";
import { isInside } from "./origin-scope.ts";

export const MARKETPLACE_FILE = path.join(".claude-plugin", "marketplace.json");

export type JsonObject = Record<string, unknown>;
export const isJsonObject = (v: unknown): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A plugin the marketplace holds in one of its folders. */
export interface LocalEntry {
  name: string;
  /** Absolute folder. */
  dir: string;
  /** The entry as written: its `strict` and component fields define a plugin without plugin.json. */
  entry: JsonObject;
}

/** A plugin the marketplace lists from another repository. */
export interface RemoteEntry {
  name: string;
  description: string;
  /** The entry's `source` object as written (main/packs/remote-entry.ts reads it). */
  source: JsonObject;
  entry: JsonObject;
}

export interface Marketplace {
  /** The file, absolute. */
  file: string;
  local: LocalEntry[];
  remote: RemoteEntry[];
  /** Entries skipped, each with why. */
  problems: Problem[];
}

/** The marketplace at `root`, or undefined when it has none. A file that does not parse throws. */
export async function readMarketplace(root: string): Promise<Marketplace | undefined> {
  const file = path.join(root, MARKETPLACE_FILE);
  // Most plugin folders have none: checked for, not read and caught (hundreds of errors a start).
  if (!existsSync(file)) return undefined;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  const out: Marketplace = { file, local: [], remote: [], problems: [] };
  const skip = (title: string) => out.problems.push({ source: "claude-plugins", file, title });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    skip(`not valid JSON (${(err as Error).message.split("\n")[0]}): none of its plugins load`);
    return out;
  }
  if (!isJsonObject(data) || !Array.isArray(data.plugins)) {
    skip("plugins: expected a list; none of its plugins load");
    return out;
  }
  const pluginRoot =
    isJsonObject(data.metadata) && typeof data.metadata.pluginRoot === "string"
      ? data.metadata.pluginRoot
      : "";
  const realRoot = await realpath(root);
  for (const [i, entry] of data.plugins.entries()) {
    if (!isJsonObject(entry) || typeof entry.name !== "string" || entry.name === "") {
      skip(`plugins[${i}]: no name, skipped`);
      continue;
    }
    const { name, source } = entry;
    if (isJsonObject(source)) {
      const description = typeof entry.description === "string" ? entry.description : "";
      out.remote.push({ name, description, source, entry });
      continue;
    }
    if (typeof source !== "string") {
      skip(`plugin "${name}": no source, skipped`);
      continue;
    }
    // A bare name is under metadata.pluginRoot; `./…` is from the marketplace's root.
    const rel =
      source.startsWith("./") || source.startsWith("../") ? source : path.join(pluginRoot, source);
    const dir = path.resolve(root, rel);
    let real: string;
    try {
      real = await realpath(dir);
    } catch {
      skip(`plugin "${name}": ${source} does not exist in the repository, skipped`);
      continue;
    }
    if (!isInside(realRoot, real)) {
      skip(`plugin "${name}": ${source} leads outside the repository, skipped`);
      continue;
    }
    out.local.push({ name, dir, entry });
  }
  return out;
}
