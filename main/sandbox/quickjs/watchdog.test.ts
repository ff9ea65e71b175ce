/**
 * The QuickJS worker's watchdog (watchdog.ts, link.ts, sandbox.ts): native
 * built-ins that never poll the interrupt handler run in the worker, not on the host thread, and
 * an overrun stops the worker. Real plugins, a real worker, real overruns.
 *
 * Each attack below runs for seconds unchecked (measured on a 2-core VM: ~3.7 s for the sort,
 * ~3.7 s for the BigInt); with a 300 ms budget the watchdog stops it after the budget, a 250 ms
 * grace and up to two 100 ms ticks, so well under CONTAINED_MS.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EntryAnnouncer, EntryWatcher, entrySlots } from "./watchdog.ts";
import {
  expectFault,
  loadPlugin,
  recordingHost,
  SANDBOX_BACKENDS_UNDER_TEST,
  sleep,
  type RecordingHost,
} from "../testing.ts";
import type { SandboxModule } from "../types.ts";

const quickjs = SANDBOX_BACKENDS_UNDER_TEST.find((b) => b.name === "quickjs")!;

/** Generous for a slow, busy 2-core machine; the unchecked built-ins take several times more. */
const CONTAINED_MS = 1_800;

const ATTACKS = `
  // 6 M doubles (48 MB; sorting them takes over a second even on an idle machine): 64 Ki pseudo-random values, doubled natively. One step per call:
  // each stays far within the budget.
  let data;
  export function allocate() { data = new Float64Array(6_000_000); }
  export function seed() {
    let seed = 1;
    for (let i = 0; i < 65536; i++) data[i] = seed = (seed * 1103515245 + 12345) % 2147483648;
    return 65536;
  }
  export function grow(n) { data.copyWithin(n, 0, n); return n * 2 < data.length ? n * 2 : 0; }
  export function sort() {
    data.sort();
    console.log("sorted");
  }
  // A megabit BigInt (QuickJS's largest), printed in decimal: one native call, quadratic.
  export function bigint() {
    const digits = String(2n ** 1_048_000n).length;
    console.log("printed", digits);
  }
  export function later() { setTimeout(() => String(2n ** 1_048_000n), 5); return "armed"; }
  export const ping = () => "pong";
`;

/** The attacker, with the data to sort ready when `sorting`. */
async function loadAttacker(sorting: boolean, host = recordingHost()): Promise<SandboxModule> {
  for (let attempt = 1; ; attempt++) {
    const m = await loadPlugin(quickjs, ATTACKS, {
      host,
      filename: "/plugins/attacker/index.ts",
      limits: { memoryMb: 192, callTimeoutMs: 300 },
    });
    if (!sorting) return m;
    try {
      await m.call("allocate", []);
      for (let n = await m.call("seed", []); n; n = await m.call("grow", [n])) {
        // the data doubles each call
      }
      return m;
    } catch (error) {
      // Getting ready is not what is tested: a machine too busy to touch 48 MB within the
      // budget gets another go.
      m.dispose();
      if (attempt === 6) throw error;
    }
  }
}

/** A plugin with state, loaded before the incident. */
function loadBystander(host: RecordingHost = recordingHost()) {
  return loadPlugin(
    quickjs,
    `let calls = 0;
     export const add = (a, b) => { calls++; return a + b; };
     export const count = () => calls;
     export const slow = () => new Promise((r) => setTimeout(() => r("late"), 1_500));`,
    { host, filename: "/plugins/bystander/index.ts", limits: { callTimeoutMs: 5_000 } },
  );
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe("QuickJS watchdog", () => {
  for (const attack of ["sort", "bigint"]) {
    test(`an uninterruptible ${attack} past the budget faults "timeout" within budget + grace`, async () => {
      const host = recordingHost();
      const m = await loadAttacker(attack === "sort", host);
      const { value: fault, ms } = await timed(() => expectFault(m.call(attack, []), "timeout"));
      assert.ok(ms < CONTAINED_MS, `contained after ${Math.round(ms)} ms`);
      assert.match(
        fault.message,
        /^\/plugins\/attacker\/index\.ts: a built-in call .* ran past the 300 ms call budget without yielding, so its QuickJS worker was stopped$/,
      );
      assert.equal(m.disposed, true);
      await expectFault(m.call("ping", []), "disposed", /after a fault \(timeout: .*built-in/);
      assert.ok(
        host.logs.some(
          (l) => l.level === "error" && /sandbox stopped \(timeout\): .*built-in/.test(l.text),
        ),
      );
      await sleep(100);
      assert.ok(
        !host.logs.some((l) => /sorted|printed/.test(l.text)),
        "the built-in was cut short, not left to finish",
      );
    });
  }

  test("the host thread keeps ticking while a built-in overruns in the worker", async () => {
    const m = await loadAttacker(true);
    let last = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 10);
    try {
      await expectFault(m.call("sort", []), "timeout");
    } finally {
      clearInterval(ticker);
    }
    // On the host thread the sort froze it for seconds; now only the watchdog's own work shows.
    assert.ok(longestGap < 250, `the host thread stalled for ${Math.round(longestGap)} ms`);
  });

  test("a plugin loaded before the incident answers afterwards, without a fault of its own", async () => {
    const bystanderHost = recordingHost();
    const bystander = await loadBystander(bystanderHost);
    assert.equal(await bystander.call("add", [1, 1]), 2);
    const inFlight = bystander.call("slow", []);
    const attacker = await loadAttacker(false);
    await expectFault(attacker.call("bigint", []), "timeout");

    // Its call in flight could not be replayed (it might have had effects): it says why.
    await expectFault(
      inFlight,
      "disposed",
      /^the call was cut short: \/plugins\/attacker\/index\.ts ran a built-in past its call budget/,
    );
    // The proxy reloaded it in a fresh worker: never disposed, same exports, fresh module state.
    assert.equal(bystander.disposed, false);
    assert.equal(await bystander.call("add", [2, 3]), 5);
    assert.equal(await bystander.call("count", []), 1);
    assert.ok(bystander.heapUsed() > 0);
    assert.ok(
      bystanderHost.logs.some(
        (l) =>
          l.level === "warn" &&
          /restarted in a fresh QuickJS worker .*\/plugins\/attacker\/index\.ts/.test(l.text),
      ),
    );
    bystander.dispose();

    // And the next load works, in the new worker.
    const fresh = await loadPlugin(quickjs, `export const add = (a, b) => a + b;`);
    assert.equal(await fresh.call("add", [20, 22]), 42);
    fresh.dispose();
  });

  test("a load queued behind the overrun is retried in the fresh worker", async () => {
    const attacker = await loadAttacker(true);
    const stuck = attacker.call("sort", []);
    // Posted while the worker is busy sorting: it is still waiting when the worker goes.
    const loading = loadBystander();
    await expectFault(stuck, "timeout");
    const bystander = await loading;
    assert.equal(await bystander.call("add", [3, 4]), 7);
    bystander.dispose();
  });

  test("an overrun in background work (a timer) stops that plugin only", async () => {
    const host = recordingHost();
    const attacker = await loadAttacker(false, host);
    const bystander = await loadBystander();
    assert.equal(await attacker.call("later", []), "armed");
    const started = performance.now();
    while (!attacker.disposed && performance.now() - started < 5_000) await sleep(20);
    assert.equal(attacker.disposed, true);
    assert.ok(performance.now() - started < CONTAINED_MS);
    assert.ok(host.logs.some((l) => /sandbox stopped \(timeout\): .*built-in/.test(l.text)));
    await expectFault(attacker.call("ping", []), "disposed", /timeout/);
    assert.equal(await bystander.call("add", [1, 2]), 3);
    bystander.dispose();
  });

  test("an overrun in top-level code fails the load", async () => {
    await expectFault(
      loadPlugin(quickjs, `export const digits = String(2n ** 1_048_000n).length;`),
      "load",
      /a built-in call .* ran past the 300 ms call budget/,
    );
  });
});

describe("entry watching", () => {
  test("only an entry still running past its budget and grace is an overrun", () => {
    const slots = entrySlots();
    const announcer = new EntryAnnouncer(slots);
    const watcher = new EntryWatcher(slots);
    assert.equal(watcher.check(0), undefined, "idle");
    announcer.enter(7, 300);
    assert.equal(watcher.check(1_000), undefined, "first seen: its time starts");
    assert.equal(watcher.check(1_500), undefined, "300 ms budget + 250 ms grace not yet spent");
    assert.deepEqual(watcher.check(1_600), { module: 7, budgetMs: 300, elapsedMs: 600 });
    announcer.leave();
    assert.equal(watcher.check(5_000), undefined, "left");
    announcer.enter(8, 4_000);
    assert.equal(watcher.check(5_000), undefined);
    assert.equal(watcher.check(10_900), undefined, "grace is half a long budget");
    assert.equal(watcher.check(11_001)?.module, 8);
  });
});
