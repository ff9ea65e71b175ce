/**
 * What an update's checkout changed, read from git's index before and after it rather than from
 * `git log` (a process that, on a busy machine, finishes after the checkout): the paths whose
 * blob or mode differ, or that are in only one of the two. It chooses the plugins to build, so
 * the build does not wait for the history, which only the question needs. Index versions 2 and 3
 * (what git writes unless told otherwise) are read; anything else is "unknown" and the caller
 * waits for git. Format: Documentation/gitformat-index.txt.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

/** path → object id and mode, as the index lists them; undefined when it cannot be read here. */
export type IndexEntries = Map<string, string>;

const FIXED = 40; // ctime, mtime, dev, ino, mode, uid, gid, size: ten 32-bit fields
const EXTENDED = 0x4000;

/** Bytes in an object id (and in the index's closing checksum): 20 for SHA-1, 32 for SHA-256. */
export function objectIdLength(gitDir: string): number {
  let config = "";
  try {
    config = readFileSync(path.join(gitDir, "config"), "utf8");
  } catch {
    // no config: git's default, SHA-1
  }
  return /objectformat\s*=\s*sha256/i.test(config) ? 32 : 20;
}

export function readIndexEntries(gitDir: string): IndexEntries | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(path.join(gitDir, "index"));
  } catch {
    return undefined;
  }
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return undefined;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return undefined;
  const count = buf.readUInt32BE(8);
  const idLength = objectIdLength(gitDir);
  const entries: IndexEntries = new Map();
  let at = 12;
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + FIXED + idLength + 2 > buf.length) return undefined;
    const mode = buf.readUInt32BE(at + 24);
    const id = buf.toString("hex", at + FIXED, at + FIXED + idLength);
    const flags = buf.readUInt16BE(at + FIXED + idLength);
    at += FIXED + idLength + 2 + (flags & EXTENDED ? 2 : 0);
    const end = buf.indexOf(0, at);
    if (end < 0) return undefined;
    const name = buf.toString("utf8", at, end);
    // Entries are padded with 1 to 8 NULs to a multiple of eight bytes.
    at = start + Math.ceil((end - start + 1) / 8) * 8;
    // Stage 0 only: a conflicted index is not a checkout's.
    if ((flags >> 12) & 3) return undefined;
    entries.set(name, `${mode.toString(8)} ${id}`);
  }
  return entries;
}

/** Paths added, removed, or changed in content or mode from `before` to `after`. */
export function changedPaths(before: IndexEntries, after: IndexEntries): string[] {
  const out: string[] = [];
  for (const [name, entry] of after) if (before.get(name) !== entry) out.push(name);
  for (const name of before.keys()) if (!after.has(name)) out.push(name);
  return out.sort();
}
