/**
 * One pack operation at a time across processes (two CLIs, or a CLI and the app): a process lock
 * (main/config/process-lock.ts) in the global home. A live holder is waited for, up to a bound,
 * then the operation stops with one line naming it.
 */
import { mkdir } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import {
  acquireProcessLock,
  LockBusyError,
  type LockHolder,
  type ProcessLock,
} from "../config/process-lock.ts";
import { PackError } from "./types.ts";

export const LOCK_NAME = "packs.lock";

export type PackLock = ProcessLock;

function busy(file: string, holder: LockHolder | undefined): PackError {
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
  try {
    return await acquireProcessLock(file, what, waitMs);
  } catch (err) {
    if (err instanceof LockBusyError) throw busy(file, err.holder);
    throw err;
  }
}
