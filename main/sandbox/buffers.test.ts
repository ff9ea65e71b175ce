/**
 * Every ArrayBuffer backing store a plugin makes counts against its memory limit, on both
 * backends. isolated-vm's own limit sees fixed-length buffers (its allocator) but not resizable
 * or growable ones, which V8 reserves and commits by itself (prelude-memory.ts).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectFault, forEachBackend, loadPlugin, recordingHost } from "./testing.ts";
import type { SandboxModule } from "./types.ts";

const MB = 1024 * 1024;
// Memory tests: time is not what should stop them.
const limits = { memoryMb: 32, callTimeoutMs: 20_000 };
const OVER_LIMIT = /over its memory limit \(32 MB\)|ran out of memory \(limit 32 MB\)/;
// QuickJS's grow() writes past the buffer (it corrupted the interpreter's heap): refused there.
const SHARED_REFUSED = /TypeError: growable SharedArrayBuffers are not available in the QuickJS/;

/** Calls `grow` until the sandbox faults; returns how many calls succeeded. */
async function callUntilFault(m: SandboxModule, name: string, calls: number): Promise<number> {
  for (let i = 0; i < calls; i++) await m.call(name, []);
  return calls;
}

forEachBackend((backend) => {
  describe("buffers count against the memory limit", () => {
    let bystander: SandboxModule;
    before(async () => {
      bystander = await loadPlugin(backend, `let n = 0; export const ping = () => ++n;`);
    });
    after(() => bystander.dispose());

    async function hostStillWorks(): Promise<void> {
      assert.equal(typeof (await bystander.call("ping", [])), "number");
      const fresh = await loadPlugin(backend, `export const add = (a, b) => a + b;`);
      assert.equal(await fresh.call("add", [2, 3]), 5);
      fresh.dispose();
    }

    /** The plugin's `grow` export, called over and over, must end in a memory fault. */
    async function growthIsStopped(code: string): Promise<void> {
      const peakBefore = process.resourceUsage().maxRSS * 1024;
      const host = recordingHost();
      const m = await loadPlugin(backend, code, { limits, host });
      await expectFault(callUntilFault(m, "grow", 200), "memory", OVER_LIMIT);
      const grew = process.resourceUsage().maxRSS * 1024 - peakBefore;
      assert.ok(grew < 150 * MB, `the host's peak RSS grew by ${Math.round(grew / MB)} MB`);
      assert.equal(m.disposed, true);
      assert.ok(host.logs.some((l) => /sandbox stopped \(memory\)/.test(l.text)));
      await hostStillWorks();
    }

    test("a resizable ArrayBuffer grown a little per call is stopped at the limit", async () => {
      await growthIsStopped(
        `let buffer;
         export function grow() {
           buffer ??= new ArrayBuffer(0, { maxByteLength: 1536 * 1024 * 1024 });
           buffer.resize(buffer.byteLength + 8 * 1024 * 1024);
           new Uint8Array(buffer).fill(7);
           return buffer.byteLength;
         }`,
      );
    });

    test("a growable SharedArrayBuffer grown a little per call is stopped at the limit (refused on QuickJS)", async () => {
      const code = `let buffer;
         export function grow() {
           buffer ??= new SharedArrayBuffer(0, { maxByteLength: 1536 * 1024 * 1024 });
           buffer.grow(buffer.byteLength + 8 * 1024 * 1024);
           new Uint8Array(buffer).fill(7);
           return buffer.byteLength;
         }`;
      if (backend.name !== "quickjs") return growthIsStopped(code);
      const m = await loadPlugin(backend, code, { limits });
      await expectFault(m.call("grow", []), "exception", SHARED_REFUSED);
      assert.equal(m.disposed, false);
      m.dispose();
    });

    test("the constructor reached through a buffer's prototype is guarded too", async () => {
      await growthIsStopped(
        `const Native = Object.getPrototypeOf(new Uint8Array(0).buffer).constructor;
         const Other = new Int8Array(0).buffer.constructor;
         const keep = [];
         export function grow() {
           for (const Ctor of [Native, Other]) {
             const buffer = Reflect.construct(Ctor, [0, { maxByteLength: 1024 * 1024 * 1024 }]);
             buffer.resize(4 * 1024 * 1024);
             new Uint8Array(buffer).fill(7);
             keep.push(buffer);
           }
           return keep.length;
         }`,
      );
    });

    test("the SharedArrayBuffer constructor reached through a buffer is guarded too", async () => {
      const code = `const Shared = Object.getPrototypeOf(new SharedArrayBuffer(0)).constructor;
         const keep = [];
         export function grow() {
           const buffer = Reflect.construct(Shared, [0, { maxByteLength: 1024 * 1024 * 1024 }]);
           buffer.grow(4 * 1024 * 1024);
           new Uint8Array(buffer).fill(7);
           keep.push(buffer);
           return keep.length;
         }`;
      if (backend.name !== "quickjs") return growthIsStopped(code);
      const m = await loadPlugin(backend, code, { limits });
      await expectFault(m.call("grow", []), "exception", SHARED_REFUSED);
      m.dispose();
    });

    test("many small resizable buffers add up to the limit", async () => {
      await growthIsStopped(
        `class Mine extends ArrayBuffer {}
         const keep = [];
         export function grow() {
           const buffer = new Mine(0, { maxByteLength: 4 * 1024 * 1024 });
           buffer.resize(4 * 1024 * 1024);
           new Uint8Array(buffer).fill(7);
           keep.push(buffer);
           return keep.length;
         }`,
      );
    });

    test("transferring a resizable buffer carries its cost to the new one", async () => {
      await growthIsStopped(
        `const keep = [];
         export function grow() {
           let buffer = new ArrayBuffer(0, { maxByteLength: 6 * 1024 * 1024 });
           buffer.resize(6 * 1024 * 1024);
           new Uint8Array(buffer).fill(7);
           buffer = buffer.transfer();
           keep.push(buffer.transferToFixedLength === undefined ? buffer : buffer.transfer());
           return keep.length;
         }`,
      );
    });

    test("fixed-length buffers and resizable ones share one limit", async () => {
      await growthIsStopped(
        `const keep = [new Uint8Array(20 * 1024 * 1024).fill(1)];
         export function grow() {
           const buffer = new ArrayBuffer(0, { maxByteLength: 4 * 1024 * 1024 });
           buffer.resize(4 * 1024 * 1024);
           new Uint8Array(buffer).fill(7);
           keep.push(buffer);
           return keep.length;
         }`,
      );
    });

    test("fixed-length buffers made after resizable ones are counted with them", async () => {
      await growthIsStopped(
        `const reserved = new ArrayBuffer(0, { maxByteLength: 24 * 1024 * 1024 });
         reserved.resize(24 * 1024 * 1024);
         new Uint8Array(reserved).fill(7);
         const keep = [reserved];
         export function grow() {
           keep.push(new Uint8Array(4 * 1024 * 1024).fill(1));
           return keep.length;
         }`,
      );
    });

    test("fixed-length buffers made in a promise job after resizable ones are counted", async () => {
      await growthIsStopped(
        `const keep = [new ArrayBuffer(0, { maxByteLength: 24 * 1024 * 1024 })];
         export async function grow() {
           await null;
           keep.push(new Uint8Array(4 * 1024 * 1024).fill(1));
           return keep.length;
         }`,
      );
    });

    test("buffers within the limit behave as the language says", async () => {
      const m = await loadPlugin(
        backend,
        `class Mine extends ArrayBuffer {}
         export function run() {
           const buffer = new ArrayBuffer(8, { maxByteLength: 1024 * 1024 });
           buffer.resize(64 * 1024);
           const view = new Uint8Array(buffer);
           view[100] = 9;
           const moved = buffer.transfer();
           const fixed = new ArrayBuffer(16);
           const shared = new SharedArrayBuffer(${backend.name === "quickjs" ? "32" : "4, { maxByteLength: 64 }"});
           if (shared.growable) shared.grow(32);
           return {
             resizable: moved.resizable, length: moved.byteLength, max: moved.maxByteLength,
             kept: new Uint8Array(moved)[100], detached: buffer.detached,
             fixed: fixed.resizable, sliced: fixed.slice(4).byteLength,
             isView: ArrayBuffer.isView(view), mine: new Mine(4) instanceof ArrayBuffer,
             proto: Object.getPrototypeOf(fixed) === ArrayBuffer.prototype,
             ctor: fixed.constructor === ArrayBuffer && view.buffer.constructor === ArrayBuffer,
             shared: shared.byteLength, growable: shared.growable,
             sharedCtor: shared.constructor === SharedArrayBuffer,
           };
         }`,
        { limits },
      );
      assert.deepEqual(await m.call("run", []), {
        resizable: true,
        length: 64 * 1024,
        max: 1024 * 1024,
        kept: 9,
        detached: true,
        fixed: false,
        sliced: 12,
        isView: true,
        mine: true,
        proto: true,
        ctor: true,
        shared: 32,
        growable: backend.name !== "quickjs",
        sharedCtor: true,
      });
      // Made and dropped over and over, buffers within the limit never add up.
      const churn = await loadPlugin(
        backend,
        `export function run() {
           new ArrayBuffer(0, { maxByteLength: 12 * 1024 * 1024 }).resize(1024);
           return true;
         }`,
        { limits },
      );
      for (let i = 0; i < 20; i++) assert.equal(await churn.call("run", []), true);
      m.dispose();
      churn.dispose();
    });
  });
});
