/**
 * QuickJS polls its interrupt handler only from the bytecode interpreter, never inside a native
 * built-in. The generic Array methods walk `length` indices in C, and over holes or a plain
 * array-like they do it without running JavaScript or allocating, so
 * `[].indexOf.call({ length: 2 ** 53 - 1 }, 0)` would hold the host thread for good (~40 ns per
 * index, no poll). This script, run in the sandbox before the prelude, wraps those methods: a
 * receiver longer than no real array under the memory cap can be is refused with a RangeError,
 * and a long one asks the host first whether the call's budget is spent (the host then ends the
 * entry as a timeout, whatever the plugin does with the error). What is left is bounded: one
 * native call over at most `limit` indices (~0.3 s at the 64 MB default).
 *
 * Native loops bounded by memory rather than time are not covered here: sorting a typed array
 * of the whole heap, or BigInt arithmetic on megabit numbers, can run for seconds past the budget.
 * They run in the QuickJS worker, whose watchdog stops them (watchdog.ts).
 *
 * JavaScript evaluated inside the sandbox; it evaluates to `harden(overdue, limit)`.
 */

/** Methods that loop over the receiver's `length` in C. find* and the iterators call JS per index. */
const WRAPPED = [
  "concat",
  "copyWithin",
  "every",
  "filter",
  "flat",
  "flatMap",
  "forEach",
  "includes",
  "indexOf",
  "join",
  "lastIndexOf",
  "map",
  "reduce",
  "reduceRight",
  "reverse",
  "shift",
  "slice",
  "some",
  "splice",
  "toLocaleString",
  "unshift",
];

export const HARDEN_SOURCE = String.raw`
function harden(overdue, limit) {
  "use strict";
  const { defineProperty } = Object;
  const apply = Reflect.apply;
  const RangeErrorCtor = RangeError;
  // Below this many indices a native call takes ~1 ms at most: not worth asking the host.
  const CHEAP = 32768;
  const lengthOf = (o) => {
    if (o === null || o === undefined) return 0;
    const n = Math.trunc(Number(Object(o).length));
    return n > 0 ? n : 0;
  };
  const check = (name, length) => {
    if (length <= CHEAP) return;
    if (overdue()) throw new RangeErrorCtor("Array.prototype." + name + " ran past the call budget");
    if (length > limit) {
      throw new RangeErrorCtor("Array.prototype." + name + ": length " + length +
        " is more than the sandbox walks in one call (" + limit + ")");
    }
  };
  const proto = Array.prototype;
  for (const name of ${JSON.stringify(WRAPPED)}) {
    const original = proto[name];
    const wrapped = {
      [name](...args) {
        if (name === "slice") {
          // slice walks only the span it copies: a short slice of a huge sparse array is fine.
          const length = lengthOf(this);
          const relative = (v, d) => { const n = v === undefined ? d : Math.trunc(Number(v)) || 0; return n < 0 ? Math.max(length + n, 0) : Math.min(n, length); };
          check(name, Math.max(relative(args[1], length) - relative(args[0], 0), 0));
        } else {
          check(name, lengthOf(this));
          if (name === "concat") for (const arg of args) if (arg !== null && typeof arg === "object") check(name, lengthOf(arg));
        }
        return apply(original, this, args);
      },
    }[name];
    defineProperty(wrapped, "length", { value: original.length });
    defineProperty(proto, name, { value: wrapped, writable: true, enumerable: false, configurable: true });
  }
}
`;

/** The most indices one native call may walk: no dense array under the memory cap is longer. */
export function hardenLimit(memoryMb: number): number {
  // A QuickJS array element takes 8 bytes (a JSValue, on 32-bit WASM).
  return Math.max(1 << 20, Math.floor((memoryMb * 1024 * 1024) / 8));
}
