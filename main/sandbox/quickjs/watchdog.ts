/**
 * The watchdog for the QuickJS worker. QuickJS's interrupt handler stops ordinary code at the
 * budget, but a few native built-ins never poll it (sorting a huge typed array, BigInt arithmetic
 * on megabit numbers): such a call holds its thread for seconds. Only the host thread can stop
 * it then, by terminating the whole worker.
 *
 * The worker announces every entry into a sandbox in a few shared integers (which module, its
 * budget, and a sequence number that is odd while inside an entry); the host polls them. Watching
 * entries, rather than each call's time since it was posted, blames the module that is actually
 * running — not one whose call merely waits behind it in the worker's queue, or one awaiting a
 * timer while another plugin's background work overruns — and catches overruns in background
 * work (timers) too, where no call is pending at all.
 */

const SEQ = 0;
const MODULE = 1;
const BUDGET = 2;
const SLOTS = 3;
const MAX_BUDGET_MS = 2 ** 31 - 1;

/** How often the host looks. Detection lags an overrun by up to two ticks. */
export const WATCH_TICK_MS = 100;

/**
 * How long past its budget an entry may run before the worker is stopped. The interrupt handler
 * ends ordinary overruns within milliseconds; the margin is for GC pauses and a busy machine.
 */
export function graceMs(budgetMs: number): number {
  return Math.max(250, budgetMs / 2);
}

export function entrySlots(): SharedArrayBuffer {
  return new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
}

/** The worker's side: marks entries in and out (one thread writes, so plain increments suffice). */
export class EntryAnnouncer {
  readonly #view: Int32Array;

  constructor(slots: SharedArrayBuffer) {
    this.#view = new Int32Array(slots);
  }

  enter(module: number, budgetMs: number): void {
    Atomics.store(this.#view, MODULE, module);
    Atomics.store(this.#view, BUDGET, Math.min(MAX_BUDGET_MS, Math.max(0, Math.ceil(budgetMs))));
    // Odd from here on: inside an entry. Stored last, so the host never reads a stale module.
    Atomics.add(this.#view, SEQ, 1);
  }

  leave(): void {
    if ((Atomics.load(this.#view, SEQ) & 1) === 1) Atomics.add(this.#view, SEQ, 1);
  }
}

export interface Overrun {
  module: number;
  budgetMs: number;
  /** How long the host has seen this entry running. */
  elapsedMs: number;
}

/** The host's side: call check() every tick; it returns the entry that overran, if one did. */
export class EntryWatcher {
  readonly #view: Int32Array;
  #seq = 0;
  #since = 0;

  constructor(slots: SharedArrayBuffer) {
    this.#view = new Int32Array(slots);
  }

  check(now = performance.now()): Overrun | undefined {
    const seq = Atomics.load(this.#view, SEQ);
    // Even: between entries. (& 1 rather than % 2: the counter wraps to negative in a long run.)
    if ((seq & 1) === 0) return undefined;
    if (seq !== this.#seq) {
      // A new entry: its time starts now (at most a tick late, which only makes us lenient).
      this.#seq = seq;
      this.#since = now;
      return undefined;
    }
    const module = Atomics.load(this.#view, MODULE);
    const budgetMs = Atomics.load(this.#view, BUDGET);
    // The entry may have ended while we read: only a still-running one counts.
    if (Atomics.load(this.#view, SEQ) !== seq) return undefined;
    const elapsedMs = now - this.#since;
    return elapsedMs > budgetMs + graceMs(budgetMs) ? { module, budgetMs, elapsedMs } : undefined;
  }
}
