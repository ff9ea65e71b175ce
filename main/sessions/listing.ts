/**
 * Listing the sessions folder: one stat per file, and a light scan (summary.ts) only of files
 * whose size or mtime changed since the index cache (index-cache.ts) last saw them.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { isErrno } from "./errors.ts";
import { isSafeSessionId } from "./ids.ts";
import { entryFor, INDEX_FILE, readIndex, writeIndex, type IndexEntry } from "./index-cache.ts";
import { scanSummary, type SessionSummary } from "./summary.ts";

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

/** Summaries, most recently updated first (ties: newer id first). */
export async function listSummaries(dir: string): Promise<SessionSummary[]> {
  const ids = await sessionIds(dir);
  const indexPath = join(dir, INDEX_FILE);
  const cached = await readIndex(indexPath);
  const fresh = new Map<string, IndexEntry>();
  let changed = cached.size !== ids.length;
  const rows = await mapLimited(ids, LIST_CONCURRENCY, async (id) => {
    const file = join(dir, id + SESSION_EXT);
    try {
      const info = await stat(file);
      let entry = cached.get(id);
      if (!entry || entry.size !== info.size || entry.mtimeMs !== info.mtimeMs) {
        const text = await readFile(file, "utf8");
        entry = entryFor(
          info.size,
          info.mtimeMs,
          scanSummary(text, { id, createdAt: info.mtime.toISOString() }),
        );
        changed = true;
      }
      fresh.set(id, entry);
      return { ...entry.summary, updatedAt: info.mtime.toISOString() };
    } catch (err) {
      if (isErrno(err, "ENOENT")) return null; // deleted while listing
      throw err;
    }
  });
  if (changed) await writeIndex(indexPath, fresh);
  const summaries = rows.filter((r): r is SessionSummary => r !== null);
  return summaries.sort(
    (a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id),
  );
}
