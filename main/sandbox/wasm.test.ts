/**
 * WebAssembly in the isolated-vm backend, for a plugin whose manifest asks for it: it works within
 * the memory limit, and its memory counts against that limit (isolated-vm's own limit covers the
 * V8 heap only; ENGINEERING §9). The hostile suite has the attacks on both backends; here are the
 * host-side measurements, in a process of their own so the peak RSS is this file's.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createSandbox } from "./backends.ts";
import { expectFault, loadPlugin, recordingHost, type BackendUnderTest } from "./testing.ts";
import type { SandboxModule } from "./types.ts";
import { wasmModuleSource } from "./wasm-fixture.ts";

const backend: BackendUnderTest = {
  name: "isolated-vm",
  create: () => createSandbox("isolated-vm"),
};
const MB = 1024 * 1024;
// Memory tests: time is not what should stop them.
const limits = { memoryMb: 64, callTimeoutMs: 20_000 };

describe("[isolated-vm] WebAssembly asked for by the manifest", () => {
  let bystander: SandboxModule;
  before(async () => {
    bystander = await loadPlugin(backend, `let n = 0; export const ping = () => ++n;`);
  });
  after(() => bystander.dispose());

  test("growing a memory to 300 MB under a 64 MB limit is a memory fault; the host never holds it", async () => {
    const peakBefore = process.resourceUsage().maxRSS * 1024;
    const host = recordingHost();
    const m = await loadPlugin(
      backend,
      `export function attack() {
         const memory = new WebAssembly.Memory({ initial: 1 });
         for (let mb = 10; mb <= 300; mb += 10) {
           memory.grow(160);
           new Uint8Array(memory.buffer).fill(7);
         }
         return memory.buffer.byteLength;
       }`,
      { limits, allowWasm: true, host },
    );
    await expectFault(
      m.call("attack", []),
      "memory",
      /WebAssembly memory .*memory limit \(64 MB\)/,
    );
    const grew = process.resourceUsage().maxRSS * 1024 - peakBefore;
    assert.ok(grew < 150 * MB, `the host's peak RSS grew by ${Math.round(grew / MB)} MB`);
    assert.equal(m.disposed, true);
    assert.ok(host.logs.some((l) => /sandbox stopped \(memory\)/.test(l.text)));
    // Everyone else keeps working.
    assert.equal(await bystander.call("ping", []), 1);
    const fresh = await loadPlugin(backend, `export const add = (a, b) => a + b;`);
    assert.equal(await fresh.call("add", [2, 3]), 5);
    fresh.dispose();
  });

  test("a module works within the limit; its own memory.grow past it answers -1", async () => {
    const m = await loadPlugin(
      backend,
      `export async function run() {
         const { instance } = await WebAssembly.instantiate(${wasmModuleSource(2)});
         const { grow, fill, memory } = instance.exports;
         const refused = grow(4800);
         const granted = grow(14);
         fill(16 * 65536 - 1);
         return { refused, granted, bytes: memory.buffer.byteLength, mine: memory instanceof WebAssembly.Memory };
       }`,
      { limits, allowWasm: true },
    );
    assert.deepEqual(await m.call("run", []), {
      refused: -1,
      granted: 2,
      bytes: 16 * 65536,
      mine: true,
    });
    assert.equal(m.disposed, false);
    m.dispose();
  });

  test("memories share the limit: the one that does not fit is a memory fault", async () => {
    const m = await loadPlugin(
      backend,
      `const keep = [];
       export function run() { keep.push(new WebAssembly.Memory({ initial: 1, maximum: 160 })); return keep.length; }`,
      { limits, allowWasm: true },
    );
    for (let i = 1; i <= 5; i++) assert.equal(await m.call("run", []), i);
    await expectFault(
      (async () => {
        for (;;) await m.call("run", []);
      })(),
      "memory",
      /WebAssembly memory/,
    );
  });

  test("memories and resizable buffers share the limit; a memory's buffer does not move out", async () => {
    const m = await loadPlugin(
      backend,
      `const keep = [];
       export function run() {
         const memory = new WebAssembly.Memory({ initial: 1, maximum: 96 });
         let moved = "moved";
         try { memory.buffer.transfer(); } catch (error) { moved = error.name; }
         keep.push(memory, new ArrayBuffer(0, { maxByteLength: 6 * 1024 * 1024 }));
         return moved;
       }`,
      { limits, allowWasm: true },
    );
    assert.equal(await m.call("run", []), "TypeError");
    await expectFault(
      (async () => {
        for (let i = 0; i < 20; i++) await m.call("run", []);
      })(),
      "memory",
      /over its memory limit \(64 MB\)/,
    );
  });

  test("tampering with the built-ins the accounting uses does not lift the limit", async () => {
    const m = await loadPlugin(
      backend,
      `const keep = [];
       export function run() {
         WeakRef.prototype.deref = () => undefined;
         Object.defineProperty(Array.prototype, "0", { set() {}, get() { return undefined; }, configurable: true });
         Map.prototype.set = function () { return this; };
         Math.min = () => 65536;
         for (;;) keep.push(new WebAssembly.Memory({ initial: 1, maximum: 160 }));
       }`,
      { limits, allowWasm: true },
    );
    await expectFault(m.call("run", []), "memory", /WebAssembly memory/);
  });
});
