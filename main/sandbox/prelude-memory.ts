/**
 * Memory that isolated-vm's limit does not see, counted in the isolate (isolated-vm only: QuickJS's
 * limit covers all of its memory).
 *
 * isolated-vm's memoryLimit covers the V8 heap and fixed-length ArrayBuffers (its allocator
 * refuses one that does not fit, a RangeError). It does not see WebAssembly memories
 * (prelude-wasm.ts), nor resizable ArrayBuffers and growable SharedArrayBuffers: V8 reserves
 * their `maxByteLength` and commits pages on `resize`/`grow` without asking the allocator, and
 * `getHeapStatistics()` reports none of it (a plugin held 1.5 GiB under a 64 MB limit). So:
 *
 * - The ledger counts such memory in full (its maximum) against the limit, with the heap and the
 *   fixed-length buffers in use, at the moment it is made; what does not fit is a memory fault.
 * - guardBuffers replaces `ArrayBuffer` and `SharedArrayBuffer` with constructors that reserve
 *   `maxByteLength` first. Each prototype's `constructor` is the guarded one, non-writable, so no
 *   path from a buffer leads back to the native constructor (nothing else makes a resizable
 *   buffer). `transfer()` keeps a resizable buffer resizable with the same backing store: its
 *   reservation moves along. `transferToFixedLength()` and `slice()` copy through the allocator.
 *
 * A reservation ends when its objects are collected (WeakRefs; FinalizationRegistry callbacks
 * would need isolate tasks that never run between entries). The plugin can replace any built-in
 * before calling in, so the ledger uses only built-ins it captured at install.
 *
 * `reserve(live, wanted, refuse, what)` is the host's: it answers the bytes still free after
 * granting `wanted` on top of the `live` reservations, or stops the sandbox with a memory fault
 * when they do not fit (or `refuse`). Asked for 0 bytes, it only answers (maybe below 0).
 */
export const MEMORY_LEDGER_SOURCE = String.raw`
function memoryLedger(reserve) {
  "use strict";
  const { create, freeze } = Object;
  const apply = Reflect.apply;
  const RangeErrorCtor = RangeError, WeakRefCtor = WeakRef;
  const deref = WeakRef.prototype.deref;

  // id → { refs (null while the object is being made), count, bytes }
  const entries = create(null);
  let nextEntry = 1;

  // isolated-vm's allocator runs a full collection before it refuses a buffer over the limit:
  // asking for one far over it is the only way the isolate has to collect dropped reservations.
  const NativeArrayBuffer = ArrayBuffer, NUDGE_BYTES = 2 ** 32;
  function collect() {
    try {
      new NativeArrayBuffer(NUDGE_BYTES);
    } catch {}
  }

  function allBytes() {
    let total = 0;
    for (const id in entries) total += entries[id].bytes;
    return total;
  }

  // Reading a WeakRef keeps its object alive until the entry ends, so the ledger reads them
  // only after a collection, when the reservations that might be dead do not leave room.
  function liveBytesFor(wanted, what) {
    const all = allBytes();
    if (all === 0 || reserve(all, 0, false, what) >= wanted) return all;
    collect();
    return liveBytes();
  }

  function liveBytes() {
    let total = 0;
    for (const id in entries) {
      const entry = entries[id];
      let alive = entry.refs === null;
      for (let i = 0; !alive && i < entry.count; i++) alive = apply(deref, entry.refs[i], []) !== undefined;
      if (alive) total += entry.bytes;
      else delete entries[id];
    }
    return total;
  }

  return freeze({
    /** Stops the sandbox (the host does) for bytes that do not fit. */
    overLimit(bytes, what) {
      reserve(liveBytesFor(Infinity, what), bytes, true, what);
      throw new RangeErrorCtor(what + " over the plugin's memory limit");
    },
    /** Bytes still free. */
    freeBytes(what) {
      const all = allBytes();
      return reserve(all === 0 ? 0 : liveBytesFor(all + 1, what), 0, false, what);
    },
    /** Reserves bytes for objects about to be made; the sandbox stops when they do not fit. */
    open(bytes, what) {
      reserve(liveBytesFor(bytes, what), bytes, false, what);
      const id = nextEntry++;
      entries[id] = { refs: null, count: 0, bytes };
      return id;
    },
    /** Makes the reserved object(s) with make(); a failure gives the bytes back. */
    made(id, make) {
      try {
        return make();
      } catch (error) {
        delete entries[id];
        throw error;
      }
    },
    /** The reservation lasts while any of objects[0..count) lives. */
    close(id, objects, count) {
      const refs = create(null);
      for (let i = 0; i < count; i++) refs[i] = new WeakRefCtor(objects[i]);
      entries[id].count = count;
      entries[id].refs = refs;
    },
    /** The bytes reserved by objects still alive, counted after a collection. */
    recount() {
      if (allBytes() === 0) return 0;
      collect();
      return liveBytes();
    },
    /** One more object that keeps reservation id alive. */
    adopt(id, object) {
      const entry = entries[id];
      if (entry === undefined || entry.refs === null) return;
      entry.refs[entry.count++] = new WeakRefCtor(object);
    },
  });
}
`;

/**
 * Evaluated to `guardBuffers(ledger)`. QuickJS has no ledger (its limit counts all its memory), but
 * its growable SharedArrayBuffer is broken: `grow()` writes past the allocation, corrupting the
 * interpreter's heap. There it is refused instead (the same guarded constructor, no ledger).
 */
export const BUFFER_GUARD_SOURCE = String.raw`
function guardBuffers(ledger) {
  "use strict";
  const { defineProperty, getOwnPropertyDescriptor } = Object;
  const { apply, construct } = Reflect;
  const NumberCtor = Number, isSafeInteger = Number.isSafeInteger;
  const TypeErrorCtor = TypeError, RangeErrorCtor = RangeError, WeakMapCtor = WeakMap;
  const { get: weakGet, set: weakSet } = WeakMap.prototype;
  const NativeArrayBuffer = ArrayBuffer;
  const NativeSharedArrayBuffer = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : undefined;
  const REFUSED_ON_QUICKJS =
    "growable SharedArrayBuffers are not available in the QuickJS plugin runtime (its grow() writes past the buffer)";
  const nativeTransfer = NativeArrayBuffer.prototype.transfer;
  const WHAT = "memory for resizable buffers";
  // Resizable buffers → their reservation, so transfer() can hand it on.
  const reservations = new WeakMapCtor();

  const fixed = (value) => ({ value, writable: false, enumerable: false, configurable: false });

  function guard(Native, name) {
    function Guarded(length, options) {
      if (new.target === undefined) throw new TypeErrorCtor("Constructor " + name + " requires 'new'");
      // maxByteLength is read once, here: V8 gets the number that was counted, not a getter.
      const max = options !== null && typeof options === "object" ? options.maxByteLength : undefined;
      if (max === undefined) return construct(Native, [length], new.target);
      const number = NumberCtor(max);
      const bytes = number !== number ? 0 : number < 0 ? -1 : number - (number % 1);
      if (!isSafeInteger(bytes) || bytes < 0) throw new RangeErrorCtor("Invalid array buffer max length");
      if (ledger === undefined) throw new TypeErrorCtor(REFUSED_ON_QUICKJS);
      const id = ledger.open(bytes, WHAT);
      const buffer = ledger.made(id, () => construct(Native, [length, { maxByteLength: bytes }], new.target));
      ledger.close(id, [buffer], 1);
      apply(weakSet, reservations, [buffer, id]);
      return buffer;
    }
    defineProperty(Guarded, "name", { value: name, configurable: true });
    defineProperty(Guarded, "prototype", fixed(Native.prototype));
    defineProperty(Native.prototype, "constructor", fixed(Guarded));
    const species = getOwnPropertyDescriptor(Native, Symbol.species);
    if (species !== undefined) defineProperty(Guarded, Symbol.species, species);
    if (Native.isView !== undefined) {
      defineProperty(Guarded, "isView", { value: Native.isView, writable: true, configurable: true });
    }
    defineProperty(globalThis, name, { value: Guarded, writable: true, enumerable: false, configurable: true });
  }

  if (NativeSharedArrayBuffer !== undefined) guard(NativeSharedArrayBuffer, "SharedArrayBuffer");
  if (ledger === undefined) return;
  guard(NativeArrayBuffer, "ArrayBuffer");

  if (nativeTransfer !== undefined) {
    const transfer = {
      transfer(newLength) {
        const moved = apply(nativeTransfer, this, [newLength]);
        const id = apply(weakGet, reservations, [this]);
        if (id !== undefined) {
          ledger.adopt(id, moved);
          apply(weakSet, reservations, [moved, id]);
        }
        return moved;
      },
    }.transfer;
    defineProperty(NativeArrayBuffer.prototype, "transfer", fixed(transfer));
  }
}
`;
