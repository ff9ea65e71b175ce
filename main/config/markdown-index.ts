/**
 * Commands, skills and agents parsed at an earlier start, remembered by their file's identity
 * (path, device, inode, size, mtime, ctime): a warm start stats each file instead of reading and
 * validating it, and a body (the prompt, most of a file) is read when the item is used. Kept on
 * disk as `cache/markdown-index.json` in the global home, beside the frontmatter cache.
 *
 * Staleness: any write changes the ctime, a replaced file has a new inode, so an edit shows as a
 * new stamp. A filesystem's clock granularity (up to 2 s) could still hide an edit made in the
 * same tick as the file was indexed, so a file changed less than TRUST_AGE_MS before it was read
 * is parsed every time until it is older.
 */
import { readFileSync, statSync, type Stats } from "node:fs";
import { KeptEntries } from "./kept-entries.ts";
import { ProblemError, type Problem } from "../host/problem.ts";
import { APP_VERSION } from "../core/version.ts";

/**
 * Bump when the file's layout or what a parser yields changes; a release starts over anyway (the
 * parsers' output, tool names mapped for agents say, may change between versions).
 */
const VERSION = `1:${APP_VERSION}`;
/** Entries kept on disk at most (the ones used by this process first). */
const MAX_ENTRIES = 20_000;
/** A file changed more recently than this (mtime or ctime) is not trusted to its stamp. */
export const TRUST_AGE_MS = 2_500;

/** What one file parsed to: an item without its body, or the problem that skipped the file. */
interface Entry {
  stamp: string;
  /** The item as JSON, its body left out; absent when the file was broken. */
  item?: string;
  warnings: Problem[];
  error?: Problem;
}

function stampOf(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

const isProblem = (p: unknown): p is Problem =>
  typeof p === "object" &&
  p !== null &&
  typeof (p as Problem).source === "string" &&
  typeof (p as Problem).title === "string";

function isEntry(e: unknown): e is Entry {
  if (typeof e !== "object" || e === null) return false;
  const { stamp, item, warnings, error } = e as Record<string, unknown>;
  return (
    typeof stamp === "string" &&
    (item === undefined || typeof item === "string") &&
    Array.isArray(warnings) &&
    warnings.every(isProblem) &&
    (error === undefined || isProblem(error)) &&
    (item !== undefined) !== (error !== undefined)
  );
}

const entries = new KeptEntries<Entry>({ version: VERSION, max: MAX_ENTRIES, valid: isEntry });

/** Reads the index file once per process; anything unreadable or foreign in it is ignored. */
export function loadMarkdownIndex(file: string): void {
  entries.load(file);
}

/** Writes the index if this process added to it; one that cannot be written is only slower. */
export function saveMarkdownIndex(file: string): Promise<void> {
  return entries.save(file);
}

export interface Parsed<T> {
  item: T;
  warnings: Problem[];
}

/**
 * `parse` of `file`'s text, or what it gave for the same file unchanged. `kind` and `variant`
 * name the parser and its options (a namespace): the same file read two ways is two entries.
 * `body` is the item's field holding the body: an item from the index reads it from the file on
 * first use. Throws what `parse` throws (a broken file's problem, remembered as well).
 */
export function indexedParse<T extends { file?: string }>(
  kind: string,
  file: string,
  variant: string,
  body: keyof T & string,
  parse: (text: string) => Parsed<T>,
  /** The file's stats when the caller has them already (taken before any read of it). */
  stats?: Stats,
): Parsed<T> {
  const key = `${kind}\0${variant}\0${file}`;
  // Stat before reading: an edit between the two leaves the older stamp, seen as changed later.
  let st = stats;
  try {
    st ??= statSync(file, { throwIfNoEntry: false });
  } catch {
    // Reading it below says what is wrong, as before.
  }
  const stamp = st ? stampOf(st) : "";
  const hit = entries.get(key);
  if (st && hit && hit.stamp === stamp) {
    if (hit.error) throw new ProblemError(hit.error);
    const item = revive<T>(hit.item!, file, body, parse);
    if (item) return { item, warnings: hit.warnings.map((w) => ({ ...w })) };
  }
  const trusted = st !== undefined && Date.now() - Math.max(st.mtimeMs, st.ctimeMs) > TRUST_AGE_MS;
  let result: Parsed<T>;
  try {
    result = parse(readFileSync(file, "utf8"));
  } catch (err) {
    if (trusted && err instanceof ProblemError)
      entries.set(key, { stamp, warnings: [], error: err.problem });
    throw err;
  }
  if (trusted) {
    const json = JSON.stringify(result.item, (k, v: unknown) => (k === body ? undefined : v));
    entries.set(key, { stamp, item: json, warnings: result.warnings.map((w) => ({ ...w })) });
  } else entries.delete(key);
  return result;
}

/** The remembered item, its body read from the file on first use; null if it does not parse. */
function revive<T extends { file?: string }>(
  json: string,
  file: string,
  body: string,
  parse: (text: string) => Parsed<T>,
): T | null {
  let item: T;
  try {
    item = JSON.parse(json) as T;
  } catch {
    return null;
  }
  if (typeof item !== "object" || item === null || item.file !== file) return null;
  let value: string | undefined;
  Object.defineProperty(item, body, {
    enumerable: true,
    configurable: true,
    get: () => (value ??= readBody(file, body, parse)),
    set: (v: string) => (value = v),
  });
  return item;
}

function readBody<T>(file: string, body: string, parse: (text: string) => Parsed<T>): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ProblemError({
      source: "markdown",
      file,
      title: `cannot be read (${why})`,
      suggestion: "reload the plugins (/reload) once it is back",
    });
  }
  return String((parse(text).item as Record<string, unknown>)[body]);
}
