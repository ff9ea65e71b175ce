/** Output size and wall-clock limits shared by the executor and tools that stream output. */

/** Tool output above this many characters is cut (head and tail kept) before the model sees it. */
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;
/** Per-call wall-clock limit when the tool does not ask for its own. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** No call may ask for more than this (a model asking for hours is almost always a mistake). */
export const MAX_TIMEOUT_MS = 600_000;

/**
 * Keeps the head and the tail of a long text: the start says what ran, the end says how it
 * ended (errors, exit codes, summaries), the middle is the part a model can best do without.
 */
export function truncateOutput(text: string, maxChars = DEFAULT_MAX_OUTPUT_CHARS): string {
  if (text.length <= maxChars) return text;
  const head = Math.ceil(maxChars / 2);
  const tail = maxChars - head;
  const dropped = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${dropped} chars truncated …]\n${text.slice(text.length - tail)}`;
}

/** A requested timeout clamped to (0, MAX_TIMEOUT_MS]; missing or invalid means the fallback. */
export function clampTimeout(requested: number | undefined, fallback = DEFAULT_TIMEOUT_MS): number {
  const value =
    requested !== undefined && Number.isFinite(requested) && requested > 0 ? requested : fallback;
  return Math.min(Math.max(1, Math.floor(value)), MAX_TIMEOUT_MS);
}

/**
 * Collects streamed text without holding all of it: a command printing gigabytes keeps only its
 * first and last `keep` characters in memory, and reports how much was skipped in between.
 */
export class HeadTailBuffer {
  readonly keep: number;
  private head = "";
  private tail = "";
  private skipped = 0;

  constructor(keep = DEFAULT_MAX_OUTPUT_CHARS) {
    this.keep = keep;
  }

  push(chunk: string): void {
    if (this.head.length < this.keep) {
      const room = this.keep - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk.length === 0) return;
    this.tail += chunk;
    if (this.tail.length > this.keep) {
      this.skipped += this.tail.length - this.keep;
      this.tail = this.tail.slice(this.tail.length - this.keep);
    }
  }

  toString(): string {
    if (this.skipped === 0) return this.head + this.tail;
    return `${this.head}\n[… ${this.skipped} chars truncated …]\n${this.tail}`;
  }
}
