/**
 * What only the QuickJS backend needs on top of the shared suites (sandbox, hostile,
 * capabilities): the places where QuickJS itself would not contain a plugin and the backend
 * does (quickjs.ts, quickjs-setup.ts).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { expectFault, loadPlugin, SANDBOX_BACKENDS_UNDER_TEST } from "./testing.ts";

const quickjs = SANDBOX_BACKENDS_UNDER_TEST.find((b) => b.name === "quickjs")!;

async function hostStillWorks(): Promise<void> {
  const fresh = await loadPlugin(quickjs, `export const add = (a, b) => a + b;`);
  assert.equal(await fresh.call("add", [2, 3]), 5);
  fresh.dispose();
}

test("typed arrays count against the memory cap (QuickJS alone counts them as 8 bytes)", async () => {
  const m = await loadPlugin(
    quickjs,
    `export function attack() {
       const keep = [];
       try { for (;;) keep.push(new Float64Array(1024 * 1024)); } catch (e) { return [keep.length, e.message]; }
     }
     export const ping = () => "pong";`,
    { limits: { memoryMb: 32, callTimeoutMs: 20_000 } },
  );
  // 8 MB each: a 32 MB cap holds a handful, where QuickJS's own accounting let 255 (2 GB) through.
  const [count, message] = (await m.call("attack", [])) as [number, string];
  assert.equal(message, "out of memory");
  assert.ok(count >= 3 && count <= 6, `${count} arrays of 8 MB fit`);
  // The plugin caught it and freed the arrays: it goes on, still under the cap.
  assert.equal(await m.call("ping", []), "pong");
  m.dispose();
});

test("native recursion past the host stack stops that sandbox only", async () => {
  const bystander = await loadPlugin(quickjs, `export const ping = () => "pong";`);
  const m = await loadPlugin(
    quickjs,
    `export function attack() { let a = []; for (let i = 0; i < 100000; i++) a = [a]; return JSON.stringify(a).length; }`,
  );
  await expectFault(m.call("attack", []), "memory", /exhausted the stack/);
  assert.equal(m.disposed, true);
  await expectFault(m.call("attack", []), "disposed", /after a fault \(memory/);
  assert.equal(await bystander.call("ping", []), "pong");
  bystander.dispose();
  await hostStillWorks();
});

test("an interruption caught by a promise chain that keeps queueing work still times out", async () => {
  const m = await loadPlugin(
    quickjs,
    `function spin() { return Promise.resolve().then(() => { for (;;) {} }).catch(() => spin()); }
     export function attack() { return spin(); }`,
  );
  const started = performance.now();
  await expectFault(m.call("attack", []), "timeout", /300 ms/);
  assert.ok(performance.now() - started < 1_500);
  assert.equal(m.disposed, true);
  await hostStillWorks();
});

test("a rejected top-level await fails the load at once, with the plugin's error", async () => {
  const started = performance.now();
  await expectFault(
    loadPlugin(
      quickjs,
      `await new Promise((r) => setTimeout(r, 5)); throw new TypeError("late config"); export const f = 1;`,
      { limits: { callTimeoutMs: 5_000 } },
    ),
    "load",
    /failed while loading: TypeError: late config \(at .*index\.ts:1/,
  );
  assert.ok(performance.now() - started < 1_000);
});

test("engine limits read as V8 words them", async () => {
  const m = await loadPlugin(
    quickjs,
    `export const deep = () => { const r = (n) => r(n + 1) + 1; return r(0); };
     export const long = () => { let s = "x"; for (;;) s = s + s; };`,
  );
  await expectFault(
    m.call("deep", []),
    "exception",
    /^RangeError: Maximum call stack size exceeded/,
  );
  await expectFault(m.call("long", []), "exception", /^RangeError: Invalid string length/);
  m.dispose();
});
