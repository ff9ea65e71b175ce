/**
 * Text and thinking deltas, batched: the first goes at once (time to first token), later ones at
 * most every FLUSH_MS. One IPC message per token would cost more than a small model's token.
 */
import type { FromRuntime } from "../protocol.ts";

const FLUSH_MS = 16;
/** Output that is not streamed (a tool call's arguments) still shows it is alive this often. */
const PROGRESS_MS = 1000;

export class Deltas {
  private text = "";
  private thinking = "";
  private timer: NodeJS.Timeout | undefined;
  private readonly id: number;
  private readonly send: (message: FromRuntime) => void;
  private readonly onFirst: () => void;
  /** When the first output came (performance.now()), 0 before. */
  firstAt = 0;
  private sentAt = 0;

  constructor(id: number, send: (message: FromRuntime) => void, onFirst: () => void) {
    this.id = id;
    this.send = send;
    this.onFirst = onFirst;
  }

  get started(): boolean {
    return this.firstAt > 0;
  }

  push(kind: "text" | "thinking", s: string): void {
    if (!s) return;
    this[kind] += s;
    if (!this.started) {
      this.firstAt = performance.now();
      this.onFirst();
      this.flush();
    } else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Output the engine does not see yet (tool-call arguments): an empty delta now and then. */
  progress(): void {
    if (!this.started) {
      this.firstAt = performance.now();
      this.onFirst();
    } else if (performance.now() - this.sentAt < PROGRESS_MS) return;
    this.flush(true);
  }

  flush(always = false): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.text && !this.thinking && !always) return;
    this.send({ type: "delta", id: this.id, text: this.text, thinking: this.thinking });
    this.sentAt = performance.now();
    this.text = "";
    this.thinking = "";
  }
}
