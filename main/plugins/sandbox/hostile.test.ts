/**
 * SPEC §11 Reliability: hostile plugins are contained as the right SandboxFault within their
 * budget, the host keeps answering (a bystander plugin loaded before keeps working), and a new
 * sandbox created afterwards works normally.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  expectFault,
  forEachBackend,
  loadPlugin,
  recordingHost,
  sleep,
  TEST_LIMITS,
} from "./testing.ts";
import { SandboxFault, type FaultKind, type SandboxModule } from "./types.ts";

interface Attack {
  name: string;
  code: string;
  /** Expected fault kinds (a big typed array may fail as an exception or kill the isolate). */
  kinds: FaultKind[];
  message: RegExp;
  /** Ceiling on how long containment may take. */
  withinMs: number;
  /** Memory bombs get a long time budget, so that memory (not time) is what stops them. */
  longBudget?: boolean;
}

const BUDGET = TEST_LIMITS.callTimeoutMs;
const TIMELY = BUDGET * 2 + 700;
const MEMORY_TIMELY = 10_000;

const ATTACKS: Attack[] = [
  {
    name: "sync infinite loop",
    code: `export function attack() { for (;;) {} }`,
    kinds: ["timeout"],
    message: /attack ran past the 300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "async infinite loop after an await",
    code: `export async function attack() { await null; for (;;) {} }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "async loop after awaiting a host call",
    code: `import { fs } from "@islet/sdk"; export async function attack() { await fs.exists("x"); for (;;) {} }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "infinite loop in an awaited timer",
    code: `export function attack() { return new Promise((r) => setTimeout(() => { for (;;) {} }, 10)); }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "never-resolving promise",
    code: `export function attack() { return new Promise(() => {}); }`,
    kinds: ["timeout"],
    message: /attack did not finish within its 300 ms budget/,
    withinMs: TIMELY,
  },
  {
    name: "Atomics.wait forever",
    code: `export function attack() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "memory bomb: array growth",
    code: `export function attack() { const a = []; for (;;) a.push({ n: Math.random(), s: "x" + Math.random() }); }`,
    kinds: ["memory"],
    message: /ran out of memory \(limit 32 MB\)/,
    withinMs: MEMORY_TIMELY,
    longBudget: true,
  },
  {
    name: "memory bomb: string doubling",
    code: `export function attack() { let s = "x"; const keep = []; for (;;) { s = s + s; keep.push(s + "y"); } }`,
    kinds: ["memory", "exception"],
    message: /memory|Invalid string length/i,
    withinMs: MEMORY_TIMELY,
    longBudget: true,
  },
  {
    name: "memory bomb: one big typed array",
    code: `export function attack() { return new Uint8Array(512 * 1024 * 1024).length; }`,
    kinds: ["memory", "exception"],
    message: /memory|allocation failed/i,
    withinMs: MEMORY_TIMELY,
    longBudget: true,
  },
  {
    name: "memory bomb: many typed arrays",
    code: `export function attack() { const keep = []; for (;;) keep.push(new Float64Array(1024 * 1024)); }`,
    kinds: ["memory", "exception"],
    message: /memory|allocation failed/i,
    withinMs: MEMORY_TIMELY,
    longBudget: true,
  },
  {
    name: "throw",
    code: `export function attack() { throw new Error("hostile"); }`,
    kinds: ["exception"],
    message: /^hostile \(at attack \(\/plugins\/test-plugin\/index\.ts:1:/,
    withinMs: TIMELY,
  },
  {
    name: "throw a non-Error",
    code: `export function attack() { throw { toString() { for (;;) {} } }; }`,
    kinds: ["exception", "timeout"],
    message: /non-Error|300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "rejected promise",
    code: `export async function attack() { await null; throw new RangeError("async hostile"); }`,
    kinds: ["exception"],
    message: /^RangeError: async hostile/,
    withinMs: TIMELY,
  },
  {
    name: "deep recursion",
    code: `export function attack() { const r = (n) => r(n + 1) + 1; return r(0); }`,
    kinds: ["exception"],
    message: /Maximum call stack size exceeded/,
    withinMs: TIMELY,
  },
  {
    name: "returning a function",
    code: `export function attack() { return { run() {} }; }`,
    kinds: ["result"],
    message: /a function at key "run"/,
    withinMs: TIMELY,
  },
  {
    name: "returning a cycle",
    code: `export function attack() { const a = {}; a.a = a; return a; }`,
    kinds: ["result"],
    message: /a cycle/,
    withinMs: TIMELY,
  },
  {
    name: "returning a BigInt",
    code: `export function attack() { return { n: 10n }; }`,
    kinds: ["result"],
    message: /a BigInt/,
    withinMs: TIMELY,
  },
  {
    name: "returning a symbol",
    code: `export function attack() { return Symbol("s"); }`,
    kinds: ["result"],
    message: /a symbol/,
    withinMs: TIMELY,
  },
  {
    name: "returning a Map",
    code: `export async function attack() { return { m: new Map([[1, 2]]) }; }`,
    kinds: ["result"],
    message: /a Map/,
    withinMs: TIMELY,
  },
  {
    name: "returning a 50 MB string",
    code: `export function attack() { return "x".repeat(50 * 1024 * 1024); }`,
    kinds: ["result", "memory"],
    message: /more than 1000000 characters|memory/,
    withinMs: MEMORY_TIMELY,
  },
  {
    name: "returning many small strings",
    code: `export function attack() { return Array.from({ length: 300000 }, (_, i) => "item" + i); }`,
    kinds: ["result"],
    message: /more than 1000000 characters/,
    withinMs: TIMELY,
  },
  {
    name: "a toJSON that throws",
    code: `export function attack() { return { toJSON() { throw new Error("nope"); } }; }`,
    kinds: ["result"],
    message: /nope/,
    withinMs: TIMELY,
  },
  {
    name: "a getter that loops while the result is encoded",
    code: `export function attack() { return { get x() { for (;;) {} } }; }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "console.log of an object whose getter loops",
    code: `export function attack() { console.log({ get x() { for (;;) {} } }); }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
];

forEachBackend((backend) => {
  describe("hostile plugins", () => {
    let bystander: SandboxModule;
    before(async () => {
      bystander = await loadPlugin(backend, `let n = 0; export const ping = () => ++n;`);
    });
    after(() => bystander.dispose());

    // The host is unaffected: the bystander answers and a brand-new sandbox works.
    async function hostStillWorks(): Promise<void> {
      assert.equal(typeof (await bystander.call("ping", [])), "number");
      const fresh = await loadPlugin(backend, `export const add = (a, b) => a + b;`);
      assert.equal(await fresh.call("add", [2, 3]), 5);
      fresh.dispose();
    }

    for (const attack of ATTACKS) {
      test(attack.name, async () => {
        const m = await loadPlugin(backend, `${attack.code}\nexport const ping = () => "pong";`, {
          host: recordingHost({ call: async () => true }),
          limits: attack.longBudget ? { callTimeoutMs: 20_000 } : {},
        });
        const started = performance.now();
        let fault: SandboxFault | undefined;
        try {
          await m.call("attack", []);
        } catch (error) {
          if (error instanceof SandboxFault) fault = error;
        }
        const elapsed = performance.now() - started;
        assert.ok(fault, "the attack must fault");
        assert.ok(attack.kinds.includes(fault.kind), `${fault.kind}: ${fault.message}`);
        assert.match(fault.message, attack.message);
        assert.ok(elapsed < attack.withinMs, `contained after ${Math.round(elapsed)} ms`);
        if (fault.fatal) {
          assert.equal(m.disposed, true);
          await expectFault(
            m.call("ping", []),
            "disposed",
            new RegExp(`after a fault \\(${fault.kind}`),
          );
        } else {
          assert.equal(
            await m.call("ping", []),
            "pong",
            "a non-fatal fault leaves the sandbox usable",
          );
        }
        m.dispose();
        await hostStillWorks();
      });
    }

    test("an infinite loop in a background timer stops the sandbox and is logged", async () => {
      const host = recordingHost();
      const m = await loadPlugin(
        backend,
        `export function attack() { setTimeout(() => { for (;;) {} }, 5); return "armed"; }`,
        { host },
      );
      assert.equal(await m.call("attack", []), "armed");
      await sleep(BUDGET + 300);
      assert.equal(m.disposed, true);
      assert.ok(
        host.logs.some((l) => l.level === "error" && /sandbox stopped \(timeout\)/.test(l.text)),
      );
      await expectFault(m.call("attack", []), "disposed", /timeout/);
      await hostStillWorks();
    });

    test("a timer hogging the host thread in short slices is stopped", async () => {
      const host = recordingHost();
      const m = await loadPlugin(
        backend,
        `export function attack() {
           setInterval(() => { const t = Date.now(); while (Date.now() - t < 40) {} }, 1);
           return "armed";
         }`,
        { host },
      );
      assert.equal(await m.call("attack", []), "armed");
      const started = performance.now();
      while (!m.disposed && performance.now() - started < 5_000) await sleep(20);
      assert.equal(m.disposed, true);
      assert.ok(performance.now() - started < 3_000);
      assert.ok(
        host.logs.some((l) =>
          /background work .* took more than 25% of the host's time/.test(l.text),
        ),
      );
      await hostStillWorks();
    });

    test("host calls in flight are capped", async () => {
      const host = recordingHost({ call: () => sleep(50).then(() => true) });
      const m = await loadPlugin(
        backend,
        `import { fs } from "@islet/sdk";
         export async function attack() {
           const results = await Promise.allSettled(Array.from({ length: 80 }, () => fs.exists("x")));
           const refused = results.filter((r) => r.status === "rejected");
           return { ok: results.length - refused.length, refused: refused.length, why: refused[0]?.reason.message };
         }`,
        { host },
      );
      assert.deepEqual(await m.call("attack", []), {
        ok: 64,
        refused: 16,
        why: "more than 64 host calls (fetch, files, exec) are in flight",
      });
      m.dispose();
    });

    test("top-level infinite loop and top-level memory bomb fail the load", async () => {
      await expectFault(loadPlugin(backend, `for (;;) {}`), "load", /ran past the 300 ms/);
      await expectFault(
        loadPlugin(backend, `const a = []; for (;;) a.push([Math.random()]);`, {
          limits: { callTimeoutMs: 20_000 },
        }),
        "load",
        /out of memory/,
      );
      await hostStillWorks();
    });

    test("constructors lead back to the sandbox, never to the host", async () => {
      const m = await loadPlugin(
        backend,
        `import { fs } from "@islet/sdk";
         export function attack() {
           const viaThis = (function () { return this; }).constructor("return this")();
           const viaFs = fs.readFile.constructor.constructor("return globalThis")();
           const viaConsole = console.log.constructor("return typeof process === 'object' ? Object.keys(process) : null")();
           const proc = ({}).constructor.constructor("return process")();
           const probes = [viaThis, viaFs].map((g) => [typeof g.require, typeof g.module, typeof g.Buffer, typeof g.process?.exit, typeof g.process?.binding]);
           return { probes, viaConsole, proc: Object.keys(proc), same: viaThis === globalThis && viaFs === globalThis };
         }`,
      );
      assert.deepEqual(await m.call("attack", []), {
        probes: [Array(5).fill("undefined"), Array(5).fill("undefined")],
        viaConsole: ["env"],
        proc: ["env"],
        same: true,
      });
      m.dispose();
    });

    test("prelude objects are frozen, host functions are not reachable", async () => {
      const m = await loadPlugin(
        backend,
        `import { fs } from "@islet/sdk";
         export function attack() {
           const frozen = [console, fs, process, process.env, fs.readFile, setTimeout, fetch].every(Object.isFrozen);
           let replaced = false;
           try { fs.readFile = () => "pwned"; replaced = fs.readFile() === "pwned"; } catch {}
           const sources = [fs.readFile, setTimeout, console.log].map((f) => Function.prototype.toString.call(f));
           return { frozen, replaced, leaks: sources.filter((s) => /\\[native code\\]/.test(s)).length };
         }`,
      );
      assert.deepEqual(await m.call("attack", []), { frozen: true, replaced: false, leaks: 0 });
      m.dispose();
    });

    test("a flood of timers is capped without hurting the host", async () => {
      const host = recordingHost();
      const m = await loadPlugin(
        backend,
        `export function attack() { for (let i = 0; i < 3000; i++) setTimeout(() => {}, 60000); return "ok"; }
         export const ping = () => "pong";`,
        { host },
      );
      assert.equal(await m.call("attack", []), "ok");
      await sleep(20);
      assert.ok(host.logs.some((l) => /Timer dropped: more than 1000/.test(l.text)));
      assert.equal(await m.call("ping", []), "pong");
      m.dispose();
      await hostStillWorks();
    });
  });
});
