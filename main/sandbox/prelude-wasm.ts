/**
 * WebAssembly for a plugin whose manifest asks for it (`permissions.wasm`). Without that the
 * prelude deletes `WebAssembly`; with it, this guard replaces the namespace (isolated-vm only:
 * QuickJS has none).
 *
 * Why a guard: isolated-vm's memoryLimit covers the V8 heap, not WebAssembly memory, and
 * `getHeapStatistics()` reports none of it (externally_allocated_size stays 0 with 1 GB of
 * memories): a plugin held 1.5 GiB under a 64 MB limit (ENGINEERING §9). Wasm code grows its
 * memories with `memory.grow`, which nobody outside sees, so the only bound V8 enforces on its own
 * is each memory's maximum. The guard therefore gives every memory one that fits, and counts it
 * in full against the limit (with the heap in use), at the moment the memory is made:
 * - `new WebAssembly.Memory(...)` and the memories a module defines (the module's memory section
 *   is rewritten before V8 compiles it) get their maximum cut to what is left; wasm code growing
 *   past it gets -1, wasm's own "out of memory".
 * - Asking for more than is left from JavaScript (an initial size, `grow()`, a module) is a memory
 *   fault: the host disposes the isolate there and then.
 * - Compiled code counts at CODE_BYTES_PER_WASM_BYTE per byte of module (measured ~2.4 after lazy
 *   compilation; optimised code is larger).
 * - compile/instantiate run synchronously inside the calling entry: V8's async versions wait for
 *   isolate tasks that never run between entries (isolated-vm.ts), so they would never settle.
 * - Only the namespace members below exist (no JSPI: its stacks live outside the heap), and the
 *   native constructors are unreachable (each prototype's `constructor` is the guarded one).
 * The reservations are the memory ledger's (prelude-memory.ts), shared with resizable buffers.
 * The plugin can replace any built-in before calling in, so the guard uses only built-ins it
 * captured at install, null-prototype objects and typed arrays.
 *
 * Evaluated inside the sandbox to `guardWasm(NativeWebAssembly, ledger)`.
 */

export const CODE_BYTES_PER_WASM_BYTE = 4;

export const WASM_GUARD_SOURCE = String.raw`
function guardWasm(WA, ledger) {
  "use strict";
  const PAGE = 65536, MAX_PAGES = 65536, CODE_FACTOR = ${CODE_BYTES_PER_WASM_BYTE};
  const { create, defineProperty, freeze, getOwnPropertyDescriptor, getPrototypeOf, keys } = Object;
  const { apply, construct } = Reflect;
  const { floor } = Math;
  const NumberCtor = Number, isInteger = Number.isInteger;
  const TypeErrorCtor = TypeError, RangeErrorCtor = RangeError, PromiseCtor = Promise;
  const Uint8ArrayCtor = Uint8Array, WeakMapCtor = WeakMap;
  const { get: weakGet, set: weakSet, has: weakHas } = WeakMap.prototype;
  const isView = ArrayBuffer.isView;
  const lengthOf = getOwnPropertyDescriptor(getPrototypeOf(Uint8Array.prototype), "length").get;
  const { Memory: NativeMemory, Module: NativeModule, Instance: NativeInstance } = WA;
  const nativeGrow = NativeMemory.prototype.grow;
  const bufferOf = getOwnPropertyDescriptor(NativeMemory.prototype, "buffer").get;
  const exportsOf = getOwnPropertyDescriptor(NativeInstance.prototype, "exports").get;
  const abLength = getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;
  const sabLength = getOwnPropertyDescriptor(SharedArrayBuffer.prototype, "byteLength").get;

  const WHAT = "WebAssembly memory";
  const overLimit = (bytes) => ledger.overLimit(bytes, WHAT);
  const freeBytes = () => ledger.freeBytes(WHAT);
  const open = (bytes) => ledger.open(bytes, WHAT);
  const { made, close } = ledger;

  // ── memories ─────────────────────────────────────────────────────────────────────────────────
  // Memories whose maximum the guard cut: grow() past it is a memory fault, not a RangeError.
  const capped = new WeakMapCtor();

  function pages(value, what) {
    const n = NumberCtor(value);
    if (!(isInteger(n) && n >= 0 && n <= MAX_PAGES)) throw new TypeErrorCtor("WebAssembly.Memory(): " + what + " must be a whole number of pages up to 65536");
    return n;
  }

  function Memory(descriptor) {
    if (new.target === undefined) throw new TypeErrorCtor("WebAssembly.Memory must be invoked with 'new'");
    if (descriptor === null || typeof descriptor !== "object") throw new TypeErrorCtor("WebAssembly.Memory(): Argument 0 must be a memory descriptor");
    const address = descriptor.address !== undefined ? descriptor.address : descriptor.index;
    if (address !== undefined && address !== "i32") throw new TypeErrorCtor("WebAssembly.Memory(): plugins cannot use 64-bit memories");
    const initial = pages(descriptor.initial !== undefined ? descriptor.initial : descriptor.minimum, "initial");
    const declared = descriptor.maximum === undefined ? MAX_PAGES : pages(descriptor.maximum, "maximum");
    const shared = !!descriptor.shared;
    if (declared < initial) throw new RangeErrorCtor("WebAssembly.Memory(): maximum must not be below initial");
    const free = floor(freeBytes() / PAGE);
    const maximum = declared < free ? declared : free;
    if (initial > maximum) overLimit(initial * PAGE);
    const id = open(maximum * PAGE);
    const memory = made(id, () => construct(NativeMemory, [{ initial, maximum, shared }], new.target));
    close(id, [memory], 1);
    if (maximum < declared) apply(weakSet, capped, [memory, maximum]);
    return memory;
  }

  function grow(delta) {
    const cap = apply(weakGet, capped, [this]);
    if (cap !== undefined) {
      const buffer = apply(bufferOf, this, []);
      let bytes;
      try { bytes = apply(abLength, buffer, []); } catch { bytes = apply(sabLength, buffer, []); }
      if (bytes / PAGE + NumberCtor(delta) > cap) overLimit(NumberCtor(delta) * PAGE);
    }
    return apply(nativeGrow, this, [delta]);
  }

  // ── modules: the memory section is rewritten so that each memory's maximum fits ──────────────
  const memoryBytes = new WeakMapCtor();

  function invalid(why) {
    return new WA.CompileError("WebAssembly.Module(): " + why);
  }

  function bytesOf(source) {
    if (isView(source)) return new Uint8ArrayCtor(new Uint8ArrayCtor(source.buffer, source.byteOffset, source.byteLength));
    let buffer = false;
    try { apply(abLength, source, []); buffer = true; } catch {}
    try { apply(sabLength, source, []); buffer = true; } catch {}
    if (!buffer) throw new TypeErrorCtor("WebAssembly.Module(): Argument 0 must be a buffer source");
    return new Uint8ArrayCtor(new Uint8ArrayCtor(source));
  }

  function uleb(b, pos, end) {
    let value = 0, scale = 1, byte;
    do {
      if (pos >= end || scale > 2 ** 28) throw invalid("malformed number at byte " + pos);
      byte = b[pos++];
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    return { value, next: pos };
  }

  function putUleb(out, at, n) {
    do {
      let byte = n & 0x7f;
      n = floor(n / 128);
      if (n > 0) byte |= 0x80;
      out[at++] = byte;
    } while (n > 0);
    return at;
  }

  /** { bytes, memory }: the module with its memories capped at the free pages, and their bytes. */
  function capMemories(b, freePages) {
    const n = apply(lengthOf, b, []);
    if (n < 8 || b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) return { bytes: b, memory: 0 };
    let pos = 8;
    while (pos < n) {
      const size = uleb(b, pos + 1, n);
      const end = size.next + size.value;
      if (end > n) throw invalid("section runs past the end");
      if (b[pos] === 5) return rewrite(b, n, pos, size.next, end, freePages);
      pos = end;
    }
    return { bytes: b, memory: 0 };
  }

  function rewrite(b, n, sectionAt, start, end, freePages) {
    const count = uleb(b, start, end);
    if (count.value > 100) throw invalid("too many memories");
    const body = new Uint8ArrayCtor(5 + count.value * 11);
    let at = putUleb(body, 0, count.value), p = count.next, left = freePages, memory = 0;
    for (let i = 0; i < count.value; i++) {
      const flags = b[p++];
      // bit 0: has a maximum; bit 1: shared. 64-bit and custom page sizes are refused.
      if (flags === undefined || flags > 3) throw invalid("plugins cannot use 64-bit or custom-page-size memories");
      const min = uleb(b, p, end);
      p = min.next;
      let declared = MAX_PAGES;
      if (flags & 1) {
        const max = uleb(b, p, end);
        p = max.next;
        if (max.value < declared) declared = max.value;
      }
      const maximum = declared < left ? declared : left;
      if (min.value > maximum) overLimit(min.value * PAGE);
      left -= maximum;
      memory += maximum * PAGE;
      body[at++] = flags | 1;
      at = putUleb(body, at, min.value);
      at = putUleb(body, at, maximum);
    }
    if (p !== end) throw invalid("malformed memory section");
    const head = new Uint8ArrayCtor(6);
    const headLength = putUleb(head, 1, at);
    head[0] = 5;
    const out = new Uint8ArrayCtor(sectionAt + headLength + at + (n - end));
    let o = 0;
    for (let i = 0; i < sectionAt; i++) out[o++] = b[i];
    for (let i = 0; i < headLength; i++) out[o++] = head[i];
    for (let i = 0; i < at; i++) out[o++] = body[i];
    for (let i = end; i < n; i++) out[o++] = b[i];
    return { bytes: out, memory };
  }

  function Module(source) {
    if (new.target === undefined) throw new TypeErrorCtor("WebAssembly.Module must be invoked with 'new'");
    const bytes = bytesOf(source);
    const id = open(apply(lengthOf, bytes, []) * CODE_FACTOR);
    const module = made(id, () => {
      const patched = capMemories(bytes, floor(freeBytes() / PAGE));
      const compiled = construct(NativeModule, [patched.bytes], new.target);
      apply(weakSet, memoryBytes, [compiled, patched.memory]);
      return compiled;
    });
    close(id, [module], 1);
    return module;
  }

  function Instance(module, imports) {
    if (new.target === undefined) throw new TypeErrorCtor("WebAssembly.Instance must be invoked with 'new'");
    const bytes = apply(weakGet, memoryBytes, [module]);
    if (bytes === undefined) throw new TypeErrorCtor("WebAssembly.Instance(): Argument 0 must be a WebAssembly.Module");
    const id = open(bytes);
    const instance = made(id, () => construct(NativeInstance, [module, imports], new.target));
    // The module's memories live as long as the instance, or an exported one longer.
    const exported = apply(exportsOf, instance, []);
    const names = keys(exported);
    const holders = create(null);
    holders[0] = instance;
    let count = 1;
    for (let i = 0; i < names.length; i++) {
      const value = exported[names[i]];
      try { apply(bufferOf, value, []); holders[count++] = value; } catch {}
    }
    close(id, holders, count);
    return instance;
  }

  function compile(source) {
    return new PromiseCtor((resolve) => resolve(construct(Module, [source], Module)));
  }

  function instantiate(source, imports) {
    return new PromiseCtor((resolve) => {
      if (apply(weakHas, memoryBytes, [source])) return resolve(construct(Instance, [source, imports], Instance));
      const module = construct(Module, [source], Module);
      resolve({ module, instance: construct(Instance, [module, imports], Instance) });
    });
  }

  // ── the namespace the plugin sees ────────────────────────────────────────────────────────────
  const ns = create(getPrototypeOf(WA));
  const member = (target, name, value) =>
    defineProperty(target, name, { value, writable: false, enumerable: false, configurable: false });
  for (const [Guarded, Native] of [[Memory, NativeMemory], [Module, NativeModule], [Instance, NativeInstance]]) {
    member(Guarded, "prototype", Native.prototype);
    member(Native.prototype, "constructor", Guarded);
  }
  for (const name of ["exports", "imports", "customSections"]) member(Module, name, NativeModule[name]);
  member(NativeMemory.prototype, "grow", grow);
  const members = { Memory, Module, Instance, compile, instantiate, validate: WA.validate };
  for (const name of ["Table", "Global", "Tag", "JSTag", "Exception", "CompileError", "LinkError", "RuntimeError"]) {
    if (WA[name] !== undefined) members[name] = WA[name];
  }
  for (const name of keys(members)) member(ns, name, members[name]);
  defineProperty(ns, Symbol.toStringTag, { value: "WebAssembly", configurable: true });
  return freeze(ns);
}
`;
