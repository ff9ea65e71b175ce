/**
 * Spare isolates (spare-isolates.ts): a plugin loaded into a spare made ahead is as fresh and as
 * bounded as one loaded into a new isolate — nothing of the plugin before it, the same memory limit.
 */
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, test } from "node:test";
import { IsolatedVmSandbox } from "./isolated-vm.ts";
import { spareIsolates } from "./spare-isolates.ts";
import { DEFAULT_LIMITS, SandboxFault, type HostCapabilities } from "./types.ts";

const host: HostCapabilities = {
  log: () => {},
  env: {},
  exec: false,
  call: () => Promise.reject(new Error("no host services here")),
};

const load = (code: string, memoryMb = DEFAULT_LIMITS.memoryMb) =>
  new IsolatedVmSandbox().load({
    code,
    filename: "/plugins/p/index.js",
    limits: { ...DEFAULT_LIMITS, memoryMb },
    host,
  });

/** The spare is made once the load that took the last one is over. */
async function spareMade(memoryMb = DEFAULT_LIMITS.memoryMb): Promise<void> {
  for (let i = 0; i < 1000 && !spareIsolates.has(memoryMb); i++) await sleep(5);
  assert.ok(spareIsolates.has(memoryMb), "a spare was made after the load");
}

describe("spare isolates", () => {
  afterEach(() => spareIsolates.release());

  test("a plugin in a spare sees nothing of the plugin loaded before it", async () => {
    const first = await load(`
      globalThis.leak = "from the first plugin";
      export function check() {
        Object.prototype.polluted = true;
        Array.prototype.push = () => 0;
        return typeof leak;
      }`);
    assert.equal(await first.call("check", []), "string");
    await spareMade();
    // The spare made after the first load is what the second one gets.
    const second = await load(`
      export function check() {
        const list = [];
        list.push(1);
        return { leak: typeof globalThis.leak, polluted: "polluted" in {}, pushed: list.length };
      }`);
    try {
      assert.deepEqual(await second.call("check", []), {
        leak: "undefined",
        polluted: false,
        pushed: 1,
      });
    } finally {
      first.dispose();
      second.dispose();
    }
  });

  test("a spare has the memory limit of the load that takes it", async () => {
    (await load("export const ready = 1;", 64)).dispose();
    await spareMade(64);
    const small = await load(
      `export function grow() { const keep = []; for (;;) keep.push(new Array(1e5).fill(1.5)); }`,
      16,
    );
    try {
      assert.ok(spareIsolates.has(64), "the 64 MB spare is not given to a 16 MB plugin");
      await assert.rejects(small.call("grow", []), (error: unknown) => {
        assert.ok(error instanceof SandboxFault);
        assert.equal(error.kind, "memory");
        return true;
      });
    } finally {
      small.dispose();
    }
  });

  test("release disposes the spares; loads go on without them", async () => {
    (await load("export const ready = 1;", 32)).dispose();
    await spareMade(32);
    spareIsolates.release();
    assert.equal(spareIsolates.size, 0);
    const again = await load("export function one() { return 1; }", 32);
    try {
      assert.equal(await again.call("one", []), 1);
    } finally {
      again.dispose();
    }
  });
});
