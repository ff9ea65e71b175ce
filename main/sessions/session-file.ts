/**
 * Opening a session file safely: only a regular file, never through a symbolic link. Anyone who
 * can write to the sessions folder could otherwise plant `<id>.jsonl` → another file, and
 * `sessions show` would print it, a resumed session would append to it.
 * O_NOFOLLOW makes the check and the open one step (no window to swap the file for a link);
 * where the platform has no O_NOFOLLOW (Windows) an lstat comes first. Anything but a regular
 * file (a folder, a FIFO) is refused too.
 */
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { isErrno, SessionError } from "./errors.ts";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO named like a session would block a plain open until someone writes to it.
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Flags for opening a session file: `flags` plus "do not follow a link". */
export function noFollow(flags: number): number {
  return flags | NOFOLLOW;
}

/** The one-line reason a session file cannot be used, from the error opening it threw. */
export function unusableSessionFile(file: string, err: unknown): SessionError {
  if (isErrno(err, "ENOENT")) return new SessionError("not_found", `no session file ${file}`);
  if (isErrno(err, "ELOOP") || isErrno(err, "EMLINK")) return linkRefused(file);
  if (isErrno(err, "EISDIR")) return notAFile(file);
  const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return unreadable(file, `cannot read it (${code})`);
}

const unreadable = (file: string, title: string) =>
  new SessionError("unreadable", { source: "sessions", file, title });
export const linkRefused = (file: string) =>
  unreadable(file, `${file} is a symbolic link; session files are never followed`);
export const notAFile = (file: string) => unreadable(file, `${file} is not a file`);

export interface SessionFileText {
  text: string;
  size: number;
  mtime: Date;
}

/** Reads a session file; rejects with a SessionError for a link, a folder or a read failure. */
export async function readSessionFile(file: string): Promise<SessionFileText> {
  let handle;
  try {
    if (NOFOLLOW === 0 && (await lstat(file)).isSymbolicLink()) throw linkRefused(file);
    handle = await open(file, noFollow(constants.O_RDONLY | NONBLOCK));
  } catch (err) {
    throw err instanceof SessionError ? err : unusableSessionFile(file, err);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw notAFile(file);
    const text = await handle.readFile("utf8");
    return { text, size: info.size, mtime: info.mtime };
  } catch (err) {
    throw err instanceof SessionError ? err : unusableSessionFile(file, err);
  } finally {
    await handle.close();
  }
}
