/**
 * Names with a stack of contributions each. The top one serves; disposing a contribution removes
 * exactly it, and whatever was under it serves again. A stack is ordered by priority (higher on
 * top) and, within one priority, by registration order (later on top).
 */
import type { Disposable } from "./disposable.ts";

/** One contribution, as its registrant holds it. */
export interface Registration<T> extends Disposable {
  readonly value: T;
  /** What serves the name now: this contribution, or one above it; undefined once all are gone. */
  serving(): T | undefined;
}

interface Layer<T> {
  readonly value: T;
  readonly priority: number;
}

export class LayeredRegistry<T> {
  /** Bottom to top. A name keeps its place in the map while any contribution holds it. */
  private readonly stacks = new Map<string, Layer<T>[]>();
  private changes = 0;

  /** Moves on at every contribution added or removed: what was read before may be stale. */
  get version(): number {
    return this.changes;
  }

  add(name: string, value: T, priority = 0): Registration<T> {
    let stack = this.stacks.get(name);
    if (!stack) {
      stack = [];
      this.stacks.set(name, stack);
    }
    const layer: Layer<T> = { value, priority };
    let at = stack.length;
    while (at > 0 && stack[at - 1].priority > priority) at--;
    stack.splice(at, 0, layer);
    this.changes++;
    let disposed = false;
    return {
      value,
      serving: () => this.get(name),
      dispose: () => {
        if (disposed) return;
        disposed = true;
        const current = this.stacks.get(name);
        const index = current?.indexOf(layer) ?? -1;
        if (!current || index < 0) return;
        current.splice(index, 1);
        this.changes++;
        if (current.length === 0) this.stacks.delete(name);
      },
    };
  }

  /** The contribution serving `name`. */
  get(name: string): T | undefined {
    const stack = this.stacks.get(name);
    return stack?.[stack.length - 1].value;
  }

  has(name: string): boolean {
    return this.stacks.has(name);
  }

  /** Every contribution for `name`, bottom (shadowed) to top (serving). */
  contributions(name: string): readonly T[] {
    return (this.stacks.get(name) ?? []).map((l) => l.value);
  }

  /** Names in the order they were first contributed. */
  names(): string[] {
    return [...this.stacks.keys()];
  }

  /** The serving contribution of every name, in name order. */
  values(): T[] {
    const out: T[] = [];
    for (const stack of this.stacks.values()) out.push(stack[stack.length - 1].value);
    return out;
  }
}
