/**
 * `index.json` beside the session files: a cache of each file's summary keyed by its size and
 * mtime, so listing hundreds of sessions costs one stat per file. The JSONL files stay the source
 * of truth: a missing, stale or corrupt index is simply rebuilt, and write failures are ignored.
 */
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { z } from "zod";
import type { ScannedSummary } from "./summary.ts";

export const INDEX_FILE = "index.json";
// 2: counts come from the full fold (summary.ts); version 1 counted damaged message lines.
const INDEX_VERSION = 2;

const entrySchema = z.object({
  size: z.number(),
  mtimeMs: z.number(),
  summary: z.object({
    id: z.string(),
    title: z.string(),
    createdAt: z.string(),
    messageCount: z.number(),
    workdir: z.string(),
    agent: z.string(),
    provider: z.string(),
    model: z.string(),
  }),
});

const indexSchema = z.object({
  v: z.literal(INDEX_VERSION),
  entries: z.record(z.string(), entrySchema),
});

export type IndexEntry = z.infer<typeof entrySchema>;

export async function readIndex(path: string): Promise<Map<string, IndexEntry>> {
  try {
    const parsed = indexSchema.safeParse(JSON.parse(await readFile(path, "utf8")));
    return parsed.success ? new Map(Object.entries(parsed.data.entries)) : new Map();
  } catch {
    return new Map();
  }
}

/** Atomic replace (write a temp file, rename over) so a crash never leaves a half index. */
export async function writeIndex(path: string, entries: Map<string, IndexEntry>): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(
      tmp,
      JSON.stringify({ v: INDEX_VERSION, entries: Object.fromEntries(entries) }),
    );
    await rename(tmp, path);
  } catch {
    // A cache that could not be written is rebuilt next time.
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}

export function entryFor(size: number, mtimeMs: number, summary: ScannedSummary): IndexEntry {
  return { size, mtimeMs, summary };
}
