/** What every pack operation is given, and the small helpers they share. */
import type { SimpleGitProgressEvent } from "simple-git";
import type { Homes } from "../config/homes.ts";
import type { GrantStore } from "../code-plugins/consent/grants.ts";
import type { GitContext } from "./git.ts";
import { PackError, type PackOperationHooks, type PackPhase } from "./types.ts";
import type { Problem } from "../host/problem.ts";

export interface PackContext {
  homes: Homes;
  env: NodeJS.ProcessEnv;
  warn(problem: Problem): void;
  grants: GrantStore;
  /**
   * Hands over work that may finish after the operation answers (deleting the copy an update
   * replaced): the next operation, and the lock, wait for it.
   */
  tidy(work: Promise<unknown>): void;
}

export function report(
  hooks: PackOperationHooks,
  phase: PackPhase,
  message: string,
  fraction?: number,
): void {
  hooks.progress?.({ phase, message, ...(fraction !== undefined ? { fraction } : {}) });
}

/** Stops between steps once the host cancelled. */
export function checkAborted(hooks: PackOperationHooks, what: string): void {
  if (hooks.signal?.aborted) throw new PackError(`${what} was cancelled; nothing was changed`);
}

/** git's progress lines as PackProgress ("receiving 42% (120/284)"). */
export function gitContext(
  ctx: PackContext,
  hooks: PackOperationHooks,
  phase: PackPhase,
): GitContext {
  return {
    env: ctx.env,
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    onProgress: (e: SimpleGitProgressEvent) =>
      report(
        hooks,
        phase,
        `${e.stage} ${e.progress}% (${e.processed}/${e.total})`,
        e.progress / 100,
      ),
  };
}

/** Any error as a PackError, so hosts can show `message` as the one line it is. */
export function asPackError(err: unknown, what: string): PackError {
  if (err instanceof PackError) return err;
  const e = err as NodeJS.ErrnoException;
  const detail = e?.code
    ? `${e.code}${e.path ? ` (${e.path})` : ""}`
    : String(e?.message ?? err).split("\n")[0];
  return new PackError(`${what} failed: ${detail}`);
}
