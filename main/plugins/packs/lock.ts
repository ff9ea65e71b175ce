/**
 * One pack operation at a time across processes (two CLIs, or a CLI and the app): a lock file in
 * the global home, created exclusively, naming the process that holds it. The holder touches it
 * while it works; a lock whose process is gone, or untouched for a minute (a hung or reused pid),
 * is stale and taken over. A live holder is waited for, up to a bound, then the operation stops
 * with one line naming it.
 */
import { hostname } from "node:os";
import { link, mkdir, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { PackError } from "./types.ts";

export const LOCK_NAME = "packs.lock";
/** How often the holder touches the lock, and how long untouched makes it stale. */
const BEAT_MS = 10_000;
const STALE_MS = 60_000;
const POLL_MS = 150;

interface Holder {
  pid: number;
  host: string;
  what: string;
  since: string;
}

export interface PackLock {
  release(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readHolder(file: string): Promise<{ holder?: Holder; text: string; age: number }> {
  const [text, info] = await Promise.all([readFile(file, "utf8"), stat(file)]);
  let holder: Holder | undefined;
  try {
    const data = JSON.parse(text) as Partial<Holder>;
    if (typeof data.pid === "number" && typeof data.host === "string")
      holder = {
        pid: data.pid,
        host: data.host,
        what: String(data.what ?? ""),
        since: String(data.since ?? ""),
      };
  } catch {
    // being written, or damaged: judged by its age alone
  }
  return { holder, text, age: Date.now() - info.mtimeMs };
}

function isStale(holder: Holder | undefined, age: number): boolean {
  if (age > STALE_MS) return true;
  return holder !== undefined && holder.host === hostname() && !alive(holder.pid);
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

function busy(file: string, holder: Holder | undefined): PackError {
  const who = holder
    ? `pid ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`}${holder.what ? `, ${holder.what}` : ""}${holder.since ? ` since ${holder.since}` : ""}`
    : `see ${file}`;
  return new PackError(
    `another islet is installing, updating or removing plugins (${who}); try again when it finishes (if no islet is running, delete ${file})`,
  );
}

/** Takes the packs lock in `globalHome`, waiting up to `waitMs` for a live holder. */
export async function acquirePackLock(
  globalHome: string,
  what: string,
  waitMs: number,
): Promise<PackLock> {
  const file = path.join(globalHome, LOCK_NAME);
  await mkdir(globalHome, { recursive: true });
  const me: Holder = { pid: process.pid, host: hostname(), what, since: new Date().toISOString() };
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
    if (Date.now() >= deadline) throw busy(file, seen.holder);
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
