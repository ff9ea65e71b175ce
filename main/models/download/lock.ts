/**
 * One download of a file at a time across processes (`islet models pull` in two terminals, the
 * CLI beside the app): `<partial>.lock` holds the downloading process's id, created exclusively.
 * A lock whose process is gone (killed mid-download, a crash) is stale and taken over.
 *
 * Two processes that find the same stale lock at the same moment could both take it over; that
 * needs a holder to die and two pulls to start within the same few milliseconds, and the loser's
 * rename still only ever publishes a file whose sha256 matched.
 */
import { link, readFile, rm, writeFile } from "node:fs/promises";

interface LockContent {
  pid: number;
  started: number;
}

export interface DownloadLock {
  release(): Promise<void>;
}

/** Who holds a lock, when it is held by a live process (this one included). */
export type LockHolder = LockContent;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function holder(lock: string): Promise<LockContent | null> {
  let raw: string;
  try {
    raw = await readFile(lock, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<LockContent>;
    if (typeof parsed.pid === "number" && Number.isInteger(parsed.pid) && parsed.pid > 0)
      return { pid: parsed.pid, started: Number(parsed.started) || 0 };
  } catch {
    // Not a lock this code wrote: stale.
  }
  return { pid: 0, started: 0 };
}

/** Links `draft` to `file` (EEXIST if taken); a file system without hard links creates it. */
async function linkOrCreate(draft: string, file: string, content: LockContent): Promise<void> {
  try {
    await link(draft, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") throw err;
    await writeFile(file, JSON.stringify(content), { flag: "wx" });
  }
}

/**
 * Takes the lock for `partial`, or returns who holds it. A stale lock (dead or unreadable
 * holder) is removed and taken.
 */
export async function lockDownload(
  partial: string,
): Promise<{ lock: DownloadLock } | { heldBy: LockHolder }> {
  const file = `${partial}.lock`;
  const mine: LockContent = { pid: process.pid, started: Date.now() };
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written whole under a name of its own, then linked into place: the lock never exists
    // half-written (a reader would take an empty lock for a stale one).
    const draft = `${file}.${process.pid}`;
    await writeFile(draft, JSON.stringify(mine));
    try {
      await linkOrCreate(draft, file, mine);
      return {
        lock: {
          release: async () => {
            // Only our own lock: a stale-lock takeover may have replaced it.
            if ((await holder(file).catch(() => null))?.pid === mine.pid)
              await rm(file, { force: true });
          },
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    } finally {
      await rm(draft, { force: true });
    }
    const current = await holder(file);
    if (current && current.pid > 0 && alive(current.pid)) return { heldBy: current };
    await rm(file, { force: true });
  }
  const current = await holder(file);
  return { heldBy: current ?? { pid: 0, started: 0 } };
}
