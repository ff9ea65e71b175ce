/**
 * Bookkeeping for export calls in flight, shared by every backend: ids, per-call deadlines (the
 * call budget covers everything the call awaits: host calls, timers, its own async loops), and
 * outcomes that arrive through `done` — possibly while the sandbox is still inside the very entry
 * that started the call (an async export that never really waits).
 *
 * A call only costs a timer when it is still pending after its first entry, so the common
 * synchronous hook pays nothing for the watchdog.
 */
import type { SandboxFault } from "./types.ts";

export interface CallTableOptions {
  budgetMs: number;
  /** The value an outcome carries; throws the SandboxFault it stands for. */
  decode(outcome: unknown, exportName: string): unknown;
  /** A pending call ran past its deadline: the backend stops the sandbox (and calls failAll). */
  onDeadline(exportName: string): void;
}

interface PendingCall {
  name: string;
  deadline: number;
  /** Inside the entry that started it: a `done` now must wait for the entry to return. */
  entering: boolean;
  early?: unknown;
  resolve?: (value: unknown) => void;
  reject?: (fault: unknown) => void;
  timer?: NodeJS.Timeout;
}

export class CallTable {
  readonly #options: CallTableOptions;
  readonly #calls = new Map<number, PendingCall>();
  #nextId = 1;

  constructor(options: CallTableOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#calls.size;
  }

  /** Reserves an id for a call about to enter the sandbox. */
  open(name: string): number {
    const id = this.#nextId++;
    this.#calls.set(id, {
      name,
      deadline: performance.now() + this.#options.budgetMs,
      entering: true,
    });
    return id;
  }

  /** The entry that started call `id` returned `outcome` ("p" = pending). */
  entered(id: number, outcome: unknown): Promise<unknown> {
    const call = this.#calls.get(id);
    if (call === undefined) return Promise.reject(new Error(`unknown call ${id}`));
    call.entering = false;
    if (outcome !== "p" || "early" in call) {
      this.#calls.delete(id);
      return this.#decode(outcome === "p" ? call.early : outcome, call.name);
    }
    return new Promise((resolve, reject) => {
      call.resolve = resolve;
      call.reject = reject;
      call.timer = setTimeout(
        () => {
          if (this.#calls.get(id) === call) this.#options.onDeadline(call.name);
        },
        Math.max(0, call.deadline - performance.now()),
      );
    });
  }

  /** The entry that started call `id` failed; the caller reports the fault itself. */
  abandon(id: number): void {
    this.#calls.delete(id);
  }

  /** `done(id, outcome)` from the sandbox. */
  complete(id: number, outcome: unknown): void {
    const call = this.#calls.get(id);
    if (call === undefined) return;
    if (call.entering) {
      call.early = outcome;
      return;
    }
    this.#calls.delete(id);
    clearTimeout(call.timer);
    let value: unknown;
    try {
      value = this.#options.decode(outcome, call.name);
    } catch (fault) {
      call.reject?.(fault);
      return;
    }
    call.resolve?.(value);
  }

  /**
   * Time limit for the next entry into the sandbox: the budget, cut to the nearest deadline of a
   * pending call so that work it awaits cannot outrun it.
   */
  entryBudgetMs(): number {
    let limit = this.#options.budgetMs;
    const now = performance.now();
    for (const call of this.#calls.values()) {
      if (!call.entering) limit = Math.min(limit, call.deadline - now);
    }
    return Math.max(1, Math.ceil(limit));
  }

  /** Rejects every pending call (the sandbox is gone). */
  failAll(fault: SandboxFault): void {
    for (const call of this.#calls.values()) {
      clearTimeout(call.timer);
      call.reject?.(fault);
    }
    this.#calls.clear();
  }

  #decode(outcome: unknown, name: string): Promise<unknown> {
    try {
      return Promise.resolve(this.#options.decode(outcome, name));
    } catch (fault) {
      return Promise.reject(fault);
    }
  }
}

/**
 * Work the sandbox does on its own — timers and callbacks while no call is pending — runs on the
 * host thread too. Each entry is bounded by the call budget, but many short ones could still
 * starve the host, so they draw on a leaky bucket: `capacityMs` of burst, refilled at `share` of
 * wall time. An empty bucket means the plugin is hogging the host.
 */
export class BackgroundBudget {
  readonly #capacityMs: number;
  readonly #share: number;
  #leftMs: number;
  #at = performance.now();

  constructor(capacityMs: number, share = 0.25) {
    this.#capacityMs = capacityMs;
    this.#share = share;
    this.#leftMs = capacityMs;
  }

  get share(): number {
    return this.#share;
  }

  /** Records `ms` of background work; false when the budget is exhausted. */
  spend(ms: number): boolean {
    const now = performance.now();
    this.#leftMs = Math.min(this.#capacityMs, this.#leftMs + (now - this.#at) * this.#share) - ms;
    this.#at = now;
    return this.#leftMs >= 0;
  }
}
