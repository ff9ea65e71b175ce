/**
 * Parsed frontmatter, remembered by its own text: with hundreds of plugins, parsing the YAML of
 * every command, skill and agent was most of a start (plugin.yaml files come through here too). The key is the YAML block itself, so an
 * edited file is a new key and nothing can be stale; what is kept is the parse as JSON, so every
 * caller gets a fresh copy. Kept on disk (`cache/frontmatter.json` in the global home, read once
 * per process) so the next start parses only what changed.
 */
import { readFileSync } from "node:fs";
import { writeAtomically } from "./atomic-write.ts";

/** Bump when the file's layout or what a parse yields changes. */
const VERSION = 1;
/** Entries kept on disk at most (the ones used by this process first). */
const MAX_ENTRIES = 20_000;

interface CacheFile {
  version: number;
  /** [YAML block, its parse as JSON]. */
  entries: [string, string][];
}

const memo = new Map<string, string>();
/** Blocks this process looked up, kept first when the file is written. */
const used = new Set<string>();
const loadedFiles = new Set<string>();
let dirty = false;

/** Values that come back from JSON exactly as they went in (no Infinity, Date or the like). */
function isJsonExact(v: unknown): boolean {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0);
  if (Array.isArray(v)) return v.every(isJsonExact);
  if (typeof v !== "object" || Object.getPrototypeOf(v) !== Object.prototype) return false;
  return Object.entries(v).every(([k, x]) => k !== "__proto__" && isJsonExact(x));
}

/** `parse(block)`, or the remembered parse of the same block. `parse` may throw (not cached). */
export function cachedParse(block: string, parse: (block: string) => unknown): unknown {
  used.add(block);
  const hit = memo.get(block);
  if (hit !== undefined) return JSON.parse(hit) as unknown;
  const value = parse(block);
  if (isJsonExact(value)) {
    // A long-running app sees every edit as a new block: bounded, it starts over when full.
    if (memo.size >= MAX_ENTRIES) {
      memo.clear();
      used.clear();
      used.add(block);
    }
    memo.set(block, JSON.stringify(value));
    dirty = true;
  }
  return value;
}

/** Reads the cache file once per process (missing or unreadable: an empty cache). */
export function loadFrontmatterCache(file: string): void {
  if (loadedFiles.has(file)) return;
  loadedFiles.add(file);
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as CacheFile;
    if (data.version !== VERSION || !Array.isArray(data.entries)) return;
    for (const [block, json] of data.entries)
      if (typeof block === "string" && typeof json === "string" && !memo.has(block))
        memo.set(block, json);
  } catch {
    // No cache yet, or a broken one: it is rebuilt as files are parsed.
  }
}

/** Writes what is new since the last write; a cache that cannot be written is only slower. */
export async function saveFrontmatterCache(file: string): Promise<void> {
  if (!dirty) return;
  dirty = false;
  const entries: [string, string][] = [];
  for (const block of used) {
    const json = memo.get(block);
    if (json !== undefined) entries.push([block, json]);
  }
  for (const [block, json] of memo) {
    if (entries.length >= MAX_ENTRIES) break;
    if (!used.has(block)) entries.push([block, json]);
  }
  const data: CacheFile = { version: VERSION, entries: entries.slice(0, MAX_ENTRIES) };
  await writeAtomically(file, JSON.stringify(data)).catch(() => {
    dirty = true;
  });
}
