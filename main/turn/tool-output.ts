/**
 * A running tool's output as it arrives, for the windows watching the turn: `tool_output`
 * events, coalesced (at most one per interval per call) and capped (each event carries at most
 * `maxChars`, the newest; what was left out is counted in `dropped`), so a command printing
 * megabytes a second cannot flood the bridge. Never saved: the final `tool_result` is.
 */
import type { EventSink } from "./events.ts";

export const LIVE_OUTPUT_INTERVAL_MS = 100;
/** At most this many characters per event: 40,000 a second per running call. */
export const LIVE_OUTPUT_MAX_CHARS = 4_000;

export interface LiveOutput {
  /** A piece of output (stdout and stderr as they interleave). */
  push(text: string): void;
  /** The call ended: what is pending goes out now, later pieces are ignored. */
  close(): void;
}

export function liveOutput(
  id: string,
  emit: EventSink,
  opts: { intervalMs?: number; maxChars?: number } = {},
): LiveOutput {
  const interval = opts.intervalMs ?? LIVE_OUTPUT_INTERVAL_MS;
  const max = opts.maxChars ?? LIVE_OUTPUT_MAX_CHARS;
  let pending = "";
  let dropped = 0;
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending === "" && dropped === 0) return;
    last = performance.now();
    const text = pending;
    const skipped = dropped;
    pending = "";
    dropped = 0;
    emit(
      skipped > 0
        ? { type: "tool_output", id, text, dropped: skipped }
        : { type: "tool_output", id, text },
    );
  };

  return {
    push(text) {
      if (closed || text === "") return;
      pending += text;
      // Only the newest `max` characters of an interval are kept: the rest is counted.
      if (pending.length > max) {
        dropped += pending.length - max;
        pending = pending.slice(pending.length - max);
      }
      const wait = last + interval - performance.now();
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    close() {
      if (closed) return;
      flush();
      closed = true;
    },
  };
}
