/**
 * One holder at a time across processes (two CLIs, a CLI and the app): a lock file created
 * exclusively, naming the process that holds it. The holder touches it while it works; a lock
 * whose process is gone, or untouched for a minute (a hung holder, a reused pid), is stale and
 * taken over. A live holder is waited for up to a bound, then LockBusyError names it.
 */
import { link, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";

/** How often the holder touches the lock, and how long untouched makes it stale. */
const BEAT_MS = 10_000;
const STALE_MS = 60_000;
const POLL_MS = 150;

export interface LockHolder {
  pid: number;
  host: string;
  /** What it is doing, for the message that names it. */
  what: string;
  since: string;
}

export interface ProcessLock {
  release(): Promise<void>;
}

export class LockBusyError extends Error {
  readonly file: string;
  /** Unknown when the lock could not be read (being written, damaged). */
  readonly holder: LockHolder | undefined;

  constructor(file: string, holder: LockHolder | undefined) {
    super(`${file} is held${holder ? ` by process ${holder.pid}` : ""}`);
    this.file = file;
    this.holder = holder;
  }
}

/** Whether process `pid` exists (also under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readHolder(
  file: string,
): Promise<{ holder?: LockHolder; text: string; age: number }> {
  const [text, info] = await Promise.all([readFile(file, "utf8"), stat(file)]);
  let holder: LockHolder | undefined;
  try {
    const data = JSON.parse(text) as Partial<LockHolder>;
    if (typeof data.pid === "number" && Number.isInteger(data.pid) && data.pid > 0)
      holder = {
        pid: data.pid,
        host: typeof data.host === "string" ? data.host : hostname(),
        what: String(data.what ?? ""),
        since: String(data.since ?? ""),
      };
  } catch {
    // being written, or damaged: judged by its age alone
  }
  return { holder, text, age: Date.now() - info.mtimeMs };
}

function isStale(holder: LockHolder | undefined, age: number): boolean {
  if (age > STALE_MS) return true;
  return holder !== undefined && holder.host === hostname() && !processAlive(holder.pid);
}

/**
 * Moves a stale lock away, checking that what was moved is the lock judged stale (another process
 * may have taken it over and locked afresh in between); a fresh one is put back.
 */
async function breakStale(file: string, judged: string): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    await rename(file, aside);
  } catch {
    return; // someone else broke it
  }
  const moved = await readFile(aside, "utf8").catch(() => judged);
  if (moved !== judged) await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/** Takes the lock at `file` (its folder must exist), waiting up to `waitMs` for a live holder. */
export async function acquireProcessLock(
  file: string,
  what: string,
  waitMs: number,
): Promise<ProcessLock> {
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    what,
    since: new Date().toISOString(),
  };
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await writeFile(file, JSON.stringify(me), { flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    let seen: Awaited<ReturnType<typeof readHolder>>;
    try {
      seen = await readHolder(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") continue; // released in between
      seen = { text: "", age: 0 }; // unreadable: waited for like a live holder, never spun on
    }
    if (isStale(seen.holder, seen.age)) {
      await breakStale(file, seen.text);
      continue;
    }
    if (Date.now() >= deadline) throw new LockBusyError(file, seen.holder);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const beat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, BEAT_MS);
  beat.unref();
  return {
    release: async () => {
      clearInterval(beat);
      // Only our own lock is removed (a holder judged stale may have lost it to another).
      const { holder } = await readHolder(file).catch(() => ({ holder: undefined }));
      if (holder?.pid === me.pid && holder.since === me.since)
        await unlink(file).catch(() => undefined);
    },
  };
}
