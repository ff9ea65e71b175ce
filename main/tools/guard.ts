/**
 * Read-before-write: the model may only change an existing file whose current content it has
 * seen. "Seen" is the file's mtime and size when it was read (or last written by a tool); any
 * change on disk since then means the model's picture is stale and it must read again.
 */
import fs from "node:fs/promises";
import type { ToolPaths } from "../../plugins/sdk/index.ts";
import type { FileStamp, ToolSessionState } from "./types.ts";
import { displayPath, resolveToolPath } from "./workpath.ts";

export type ResolvedPaths = Required<ToolPaths>;

/** All five lists made absolute (relative entries are relative to the workdir). */
export function resolvePaths(paths: ToolPaths | undefined, workdir: string): ResolvedPaths {
  const resolveAll = (list: string[] | undefined): string[] =>
    (list ?? [])
      .filter((p) => typeof p === "string" && p !== "")
      .map((p) => resolveToolPath(workdir, p));
  return {
    read: resolveAll(paths?.read),
    write: resolveAll(paths?.write),
    record: resolveAll(paths?.record),
    guard: resolveAll(paths?.guard),
    clear: resolveAll(paths?.clear),
  };
}

async function stampOf(file: string): Promise<FileStamp | null> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return null;
    return { mtimeMs: stat.mtimeMs, size: stat.size };
  } catch {
    return null;
  }
}

/** Marks the files' current content as seen; a path that is gone is forgotten instead. */
export async function recordSeen(state: ToolSessionState, files: readonly string[]): Promise<void> {
  for (const file of files) {
    const stamp = await stampOf(file);
    if (stamp) state.seenFiles.set(file, stamp);
    else state.seenFiles.delete(file);
  }
}

export function clearSeen(state: ToolSessionState, files: readonly string[]): void {
  for (const file of files) state.seenFiles.delete(file);
}

/**
 * Null when every guarded file may be changed: it does not exist yet (creating needs no read) or
 * it is unchanged since the model saw it. Otherwise one message telling the model what to do.
 */
export async function checkGuard(
  state: ToolSessionState,
  files: readonly string[],
  workdir: string,
): Promise<string | null> {
  for (const file of files) {
    const current = await stampOf(file);
    if (!current) continue;
    const shown = displayPath(workdir, file);
    const seen = state.seenFiles.get(file);
    if (!seen) {
      return `${shown} exists but has not been read in this session. Read it first, then retry.`;
    }
    if (seen.mtimeMs !== current.mtimeMs || seen.size !== current.size) {
      return `${shown} has changed on disk since it was last read. Read it again, then retry.`;
    }
  }
  return null;
}
