/**
 * One spare V8 isolate per memory limit, made in idle time after plugin loads took the last
 * one: `new Isolate` is most of a warm plugin load (3–5 ms), and a reload or an on-demand
 * activation usually comes alone. A spare has never run anything — no context of ours, no code,
 * no callbacks — so taking it is the same as creating it then; it only moves the creation
 * earlier. A spare nobody takes is disposed after a while, so it costs memory only around loads.
 */
import type IsolatedVM from "isolated-vm";
import type { Ivm } from "./isolated-vm-setup.ts";

/** A spare is made once no load has taken an isolate for this long. */
const REFILL_AFTER_MS = 50;
/** A spare left unused this long is disposed (its ~0.7 MB is not worth keeping for nothing). */
const SPARE_KEEP_MS = 30_000;

export interface TakenIsolate {
  iso: IsolatedVM.Isolate;
  /** Where V8's catastrophic errors for this isolate go (set by its owner). */
  onCatastrophicError(handler: (message: string) => void): void;
}

interface Made extends TakenIsolate {
  expire?: NodeJS.Timeout;
}

function make(ivm: Ivm, memoryLimit: number): Made {
  let handler: (message: string) => void = () => {};
  const iso = new ivm.Isolate({ memoryLimit, onCatastrophicError: (m) => handler(m) });
  return { iso, onCatastrophicError: (h) => (handler = h) };
}

export class SpareIsolates {
  readonly #spares = new Map<number, Made>();
  readonly #pending = new Map<number, NodeJS.Timeout>();
  #enabled = true;

  /** A fresh isolate with this memory limit (MB): the spare if there is one, else a new one. */
  take(ivm: Ivm, memoryLimit: number): TakenIsolate {
    const spare = this.#spares.get(memoryLimit);
    this.#spares.delete(memoryLimit);
    if (spare?.expire) clearTimeout(spare.expire);
    const taken = spare && !spare.iso.isDisposed ? spare : make(ivm, memoryLimit);
    this.#refill(ivm, memoryLimit);
    return taken;
  }

  /** Spares off (and the current ones disposed): tests, and a host closing down. */
  set enabled(on: boolean) {
    this.#enabled = on;
    if (!on) this.release();
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** How many spares are alive now. */
  get size(): number {
    return this.#spares.size;
  }

  /** Whether a spare with this memory limit (MB) is ready. */
  has(memoryLimit: number): boolean {
    return this.#spares.has(memoryLimit);
  }

  /** Disposes every spare (nothing else holds them), and forgets those about to be made. */
  release(): void {
    for (const timer of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
    for (const spare of this.#spares.values()) {
      if (spare.expire) clearTimeout(spare.expire);
      if (!spare.iso.isDisposed) spare.iso.dispose();
    }
    this.#spares.clear();
  }

  // Once loads have stopped for a moment: inside a batch of loads a spare would only compete with
  // them for the host thread (each load makes its own isolate about as fast); after it, the next
  // lone load (a reload, an activation, a released plugin's next call) finds one ready.
  #refill(ivm: Ivm, memoryLimit: number): void {
    if (!this.#enabled) return;
    clearTimeout(this.#pending.get(memoryLimit));
    const timer = setTimeout(() => {
      this.#pending.delete(memoryLimit);
      if (!this.#enabled || this.#spares.has(memoryLimit)) return;
      const spare: Made = make(ivm, memoryLimit);
      spare.expire = setTimeout(() => {
        if (this.#spares.get(memoryLimit) !== spare) return;
        this.#spares.delete(memoryLimit);
        spare.iso.dispose();
      }, SPARE_KEEP_MS);
      spare.expire.unref();
      this.#spares.set(memoryLimit, spare);
    }, REFILL_AFTER_MS);
    // A spare is never a reason to keep the process alive.
    timer.unref();
    this.#pending.set(memoryLimit, timer);
  }
}

/** The process's spares, shared by every isolated-vm sandbox. */
export const spareIsolates = new SpareIsolates();
