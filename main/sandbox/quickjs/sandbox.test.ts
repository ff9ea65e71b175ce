/**
 * What only the QuickJS backend needs on top of the shared suites (sandbox, hostile,
 * capabilities): the places where QuickJS itself would not contain a plugin and the backend
 * does (module.ts, setup.ts). Built-ins that overrun for seconds are stopped by
 * the worker's watchdog: watchdog.test.ts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { expectFault, loadPlugin, SANDBOX_BACKENDS_UNDER_TEST } from "../testing.ts";
import type { SandboxModule } from "../types.ts";

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

test("native loops over huge array-likes are refused, and long ones stop at the budget", async () => {
  const m = await loadPlugin(
    quickjs,
    `export const huge = () => [].indexOf.call({ length: 2 ** 53 - 1 }, 0);
     export const fine = () => {
       const sparse = []; sparse[50_000_000] = "end";
       return [[1, 2, 3].indexOf(2), Array.prototype.join.call({ length: 3, 0: "a" }, "-"), sparse.slice(-1)[0], [[1], [2]].flat().length];
     };
     export const spin = () => { for (;;) { try { [].includes.call({ length: 4e6 }, 0); } catch {} } };`,
  );
  await expectFault(
    m.call("huge", []),
    "exception",
    /^RangeError: Array\.prototype\.indexOf: length 9007199254740991 is more than the sandbox walks in one call/,
  );
  assert.deepEqual(await m.call("fine", []), [1, "a--", "end", 2]);
  const started = performance.now();
  await expectFault(m.call("spin", []), "timeout", /spin ran past the 300 ms call budget/);
  assert.ok(performance.now() - started < 1_500);
  await hostStillWorks();
});

test("a native call that overruns the budget briefly still ends as a timeout", async () => {
  const source = `let data, pattern;
     // In tenths: each call stays well inside the 100 ms budget.
     export function prepare(part) {
       if (part === 0) {
         data = new Float64Array(1_500_000);
         pattern = Float64Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
       }
       for (let i = part * 150; i < (part + 1) * 150; i++) data.set(pattern, i * 1000);
     }
     export const sort = () => data.sort().length;`;
  // The setup has the same 100 ms budget as the call under test; a loaded machine that pauses
  // this process for longer fails the setup, not the test: it gets a fresh plugin and tries again.
  let m: SandboxModule | undefined;
  for (let attempt = 0; attempt < 6 && !m; attempt++) {
    const candidate = await loadPlugin(quickjs, source, { limits: { callTimeoutMs: 100 } }).catch(
      () => undefined,
    );
    try {
      for (let part = 0; candidate && part < 10; part++) await candidate.call("prepare", [part]);
      m = candidate;
    } catch {
      candidate?.dispose();
    }
  }
  assert.ok(m, "the setup never fit its budget in 6 tries");
  // The sort (~250 ms here) never polls the interrupt handler. It normally returns before the
  // watchdog's 250 ms grace is over, and the entry's own check at its end sees the overrun
  // ("sort ran past…"); on a much slower machine the watchdog stops it ("a built-in call…").
  await expectFault(m.call("sort", []), "timeout", /ran past the 100 ms call budget/);
  assert.equal(m.disposed, true);
});
