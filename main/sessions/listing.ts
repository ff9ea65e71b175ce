/**
 * Listing the sessions folder: one lstat per file, and a scan (summary.ts) only of files whose
 * size or mtime changed since the index cache (index-cache.ts) last saw them. An entry that is
 * not a readable regular file (a folder, a link, a file we may not read) is skipped with a
 * warning naming it: one bad entry never hides the others.
 */
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { isErrno, SessionError } from "./errors.ts";
import { isSafeSessionId } from "./ids.ts";
import { entryFor, INDEX_FILE, readIndex, writeIndex, type IndexEntry } from "./index-cache.ts";
import { linkRefused, notAFile, readSessionFile } from "./session-file.ts";
import { scanSummary, type SessionSummary } from "./summary.ts";
import type { Problem, ProblemSink } from "../host/problem.ts";

export const SESSION_EXT = ".jsonl";
/** Enough parallel reads to hide latency without opening hundreds of files at once. */
const LIST_CONCURRENCY = 8;

async function mapLimited<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Ids of the session files in `dir` (none when the folder does not exist yet). */
export async function sessionIds(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if (isErrno(err, "ENOENT")) return [];
    throw err;
  }
  return names
    .filter((n) => n.endsWith(SESSION_EXT))
    .map((n) => n.slice(0, -SESSION_EXT.length))
    .filter(isSafeSessionId);
}

/** Summaries, most recently updated first (ties: newer id first); `warn` hears of skipped entries. */
export async function listSummaries(
  dir: string,
  warn: ProblemSink = () => {},
): Promise<SessionSummary[]> {
  const ids = await sessionIds(dir);
  const indexPath = join(dir, INDEX_FILE);
  const cached = await readIndex(indexPath);
  const fresh = new Map<string, IndexEntry>();
  let changed = cached.size !== ids.length;
  // Files are read several at a time: skipped ones are told afterwards, in name order.
  const skipped = new Map<string, Problem>();
  const rows = await mapLimited(ids, LIST_CONCURRENCY, async (id) => {
    const file = join(dir, id + SESSION_EXT);
    try {
      const info = await lstat(file);
      if (info.isSymbolicLink()) throw linkRefused(file);
      if (!info.isFile()) throw notAFile(file);
      let entry = cached.get(id);
      if (!entry || entry.size !== info.size || entry.mtimeMs !== info.mtimeMs) {
        const read = await readSessionFile(file);
        entry = entryFor(
          read.size,
          read.mtime.getTime(),
          scanSummary(read.text, file, { id, createdAt: read.mtime.toISOString() }),
        );
        changed = true;
      }
      fresh.set(id, entry);
      return { ...entry.summary, updatedAt: info.mtime.toISOString() };
    } catch (err) {
      // Deleted while listing: simply gone.
      if (isErrno(err, "ENOENT") || (err instanceof SessionError && err.code === "not_found"))
        return null;
      const problem =
        err instanceof SessionError && err.problem
          ? err.problem
          : { source: "sessions", file, title: err instanceof Error ? err.message : String(err) };
      skipped.set(id, { ...problem, title: `${problem.title}: skipped` });
      changed = true;
      return null;
    }
  });
  for (const id of [...skipped.keys()].sort()) warn(skipped.get(id)!);
  if (changed) await writeIndex(indexPath, fresh);
  const summaries = rows.filter((r): r is SessionSummary => r !== null);
  return summaries.sort(
    (a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id),
  );
}
