/**
 * Parsed frontmatter, remembered by its own text: with hundreds of plugins, parsing the YAML of
 * every command, skill and agent was most of a start (plugin.yaml files come through here too). The key is the YAML block itself, so an
 * edited file is a new key and nothing can be stale; what is kept is the parse as JSON, so every
 * caller gets a fresh copy. Kept on disk (`cache/frontmatter.json` in the global home, read once
 * per process) so the next start parses only what changed.
 */
import { KeptEntries } from "./kept-entries.ts";

/** Entries kept on disk at most (the ones used by this process first). */
const MAX_ENTRIES = 20_000;

/** YAML block → its parse as JSON. Bump `version` when the file's layout or a parse changes. */
const memo = new KeptEntries<string>({
  version: 1,
  max: MAX_ENTRIES,
  valid: (json): json is string => typeof json === "string",
});

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
  const hit = memo.get(block);
  if (hit !== undefined) return JSON.parse(hit) as unknown;
  const value = parse(block);
  if (isJsonExact(value)) {
    // A long-running app sees every edit as a new block: bounded, it starts over when full.
    if (memo.size >= MAX_ENTRIES) memo.clear();
    memo.set(block, JSON.stringify(value));
  }
  return value;
}

/** Reads the cache file once per process (missing or unreadable: an empty cache). */
export function loadFrontmatterCache(file: string): void {
  memo.load(file);
}

/** Writes what is new since the last write; a cache that cannot be written is only slower. */
export function saveFrontmatterCache(file: string): Promise<void> {
  return memo.save(file);
}
