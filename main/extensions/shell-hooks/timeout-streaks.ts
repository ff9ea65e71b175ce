/**
 * A hook command that keeps running into its time limit is not run again in that conversation.
 * The shape met in public marketplaces: `npx some-package@1.2.3 …` on every PreToolUse and
 * PostToolUse. Offline, npx waits on the registry until the 60 s limit stops it, so every tool
 * call cost two minutes, and the action went on anyway (a timed-out hook never blocks). Two
 * timeouts in a row: one slow first run (npx fetching its package on a slow network) is forgiven.
 * A new conversation tries the command again.
 */
import type { ShellHookSpec } from "./config.ts";

/** Timeouts in a row after which a command is left out for the conversation. */
export const TIMEOUTS_BEFORE_PAUSE = 2;

export class TimeoutStreaks {
  readonly #bySession = new Map<string, Map<ShellHookSpec, number>>();

  /** Whether the command has timed out too often in a row in this session to run again. */
  paused(session: string, spec: ShellHookSpec): boolean {
    return (this.#bySession.get(session)?.get(spec) ?? 0) >= TIMEOUTS_BEFORE_PAUSE;
  }

  /** Counts a run; returns true when this timeout is the one that pauses the command. */
  record(session: string, spec: ShellHookSpec, timedOut: boolean): boolean {
    let streaks = this.#bySession.get(session);
    if (!timedOut) {
      streaks?.delete(spec);
      return false;
    }
    if (!streaks) this.#bySession.set(session, (streaks = new Map()));
    const n = (streaks.get(spec) ?? 0) + 1;
    streaks.set(spec, n);
    return n === TIMEOUTS_BEFORE_PAUSE;
  }

  /** The session ended: its counts go. */
  forget(session: string): void {
    this.#bySession.delete(session);
  }
}
