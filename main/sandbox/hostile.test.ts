/**
 * SPEC §11 Reliability: hostile plugins are contained as the right SandboxFault within their
 * budget, the host keeps answering (a bystander plugin loaded before keeps working), and a new
 * sandbox created afterwards works normally.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectFault, forEachBackend, loadPlugin, recordingHost, sleep } from "./testing.ts";
import { SandboxFault, type SandboxModule } from "./types.ts";
import { ATTACKS, BUDGET } from "./hostile-attacks.ts";

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
      const expected = { ...attack, ...attack.on?.[backend.name] };
      test(attack.name, async () => {
        const m = await loadPlugin(backend, `${attack.code}\nexport const ping = () => "pong";`, {
          host: recordingHost({ call: async () => true }),
          limits: attack.longBudget ? { callTimeoutMs: 20_000 } : {},
          allowWasm: attack.allowWasm,
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
        assert.ok(expected.kinds.includes(fault.kind), `${fault.kind}: ${fault.message}`);
        assert.match(fault.message, expected.message);
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

    test("WebAssembly is not reachable without permissions.wasm", async () => {
      const m = await loadPlugin(
        backend,
        `export function attack() {
           return {
             type: typeof WebAssembly,
             has: "WebAssembly" in globalThis,
             keys: Reflect.ownKeys(globalThis).map(String).filter((k) => /wasm|webassembly/i.test(k)),
             viaFunction: Function("return typeof globalThis.WebAssembly")(),
           };
         }`,
      );
      assert.deepEqual(await m.call("attack", []), {
        type: "undefined",
        has: false,
        keys: [],
        viaFunction: "undefined",
      });
      m.dispose();
    });

    test("top-level WebAssembly without permissions.wasm fails the load, saying how to ask", async () => {
      await expectFault(
        loadPlugin(
          backend,
          `export const size = new WebAssembly.Memory({ initial: 1 }).buffer.byteLength;`,
        ),
        "load",
        /failed while loading: .*WebAssembly'? is not defined.*plugin\.yaml \(permissions: wasm: reason/,
      );
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
        // Not a test of the call budget: 3,000 timers on QuickJS under load can take a while.
        { host, limits: { callTimeoutMs: 10_000 } },
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
