import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { version } from "../../plugins/sdk/index.ts";
import {
  expectFault,
  forEachBackend,
  loadPlugin,
  recordingHost,
  sleep,
  TEST_FILENAME,
} from "./testing.ts";

forEachBackend((backend) => {
  describe("exports and calls", () => {
    test("discovers functions with arity and JSON values", async () => {
      const m = await loadPlugin(
        backend,
        `export function beforeChat(ctx) {}
         export const execute = async (ctx, args) => "ok";
         export const meta = { name: "x", tags: ["a"] };
         export const handle = new Map();
         export let nothing;`,
      );
      assert.deepEqual([...m.functions].sort(), ["beforeChat", "execute"]);
      assert.equal(m.arity.get("beforeChat"), 1);
      assert.equal(m.arity.get("execute"), 2);
      assert.deepEqual(m.values, { meta: { name: "x", tags: ["a"] } });
      m.dispose();
    });

    test("sync and async exports return copied JSON; module state survives between calls", async () => {
      const m = await loadPlugin(
        backend,
        `let count = 0;
         export function bump(ctx) { ctx.turns.push("mutated"); return { count: ++count, seen: ctx.turns.length }; }
         export async function later(x) { await null; return { x, count }; }
         export function nothing() {}`,
      );
      const ctx = { turns: ["a", "b"] };
      assert.deepEqual(await m.call("bump", [ctx]), { count: 1, seen: 3 });
      assert.deepEqual(ctx.turns, ["a", "b"], "the sandbox got a copy");
      assert.deepEqual(await m.call("bump", [ctx]), { count: 2, seen: 3 });
      assert.deepEqual(await m.call("later", [5]), { x: 5, count: 2 });
      assert.equal(await m.call("nothing", []), undefined);
      m.dispose();
    });

    test("calling a missing export is a non-fatal exception", async () => {
      const m = await loadPlugin(backend, `export const f = () => 1;`);
      await expectFault(m.call("missing", []), "exception", /no exported function missing/);
      assert.equal(await m.call("f", []), 1);
      m.dispose();
    });

    test("after dispose, calls fail with disposed", async () => {
      const m = await loadPlugin(backend, `export const f = () => 1;`);
      m.dispose();
      assert.equal(m.disposed, true);
      await expectFault(m.call("f", []), "disposed");
      m.dispose();
    });

    test("heapUsed reports the sandbox heap", async () => {
      const m = await loadPlugin(backend, `export const f = () => 1;`);
      assert.ok(m.heapUsed() > 0);
      m.dispose();
      assert.equal(m.heapUsed(), 0);
    });
  });

  describe("loading", () => {
    test("@islet/sdk carries the SDK constants", async () => {
      const m = await loadPlugin(
        backend,
        `import { version, RoleUser, RoleAssistant, fs } from "@islet/sdk";
         export const info = () => ({ version, RoleUser, RoleAssistant, fs: typeof fs.readFile, frozen: Object.isFrozen(fs) });`,
      );
      assert.deepEqual(await m.call("info", []), {
        version,
        RoleUser: "user",
        RoleAssistant: "assistant",
        fs: "function",
        frozen: true,
      });
      m.dispose();
    });

    test("@islet/sdk/exec without unsafe mode fails at load with the advice", async () => {
      const load = loadPlugin(
        backend,
        `import { exec } from "@islet/sdk/exec"; export const f = () => exec;`,
      );
      await expectFault(
        load,
        "load",
        /imports @islet\/sdk\/exec, which runs programs: enable unsafe mode with `plugins\.unsafe: true` in config\/features\/plugins\.yaml or --unsafe-plugins/,
      );
    });

    test("Node built-ins and unknown modules fail at load, naming the specifier", async () => {
      await expectFault(
        loadPlugin(backend, `import fs from "fs"; export const f = () => fs;`),
        "load",
        /"fs": plugins cannot import Node modules; use fs from @islet\/sdk/,
      );
      await expectFault(
        loadPlugin(backend, `import cp from "node:child_process"; export const f = () => cp;`),
        "load",
        /"node:child_process": plugins cannot import Node modules/,
      );
      await expectFault(
        loadPlugin(backend, `import x from "left-pad"; export const f = () => x;`),
        "load",
        /"left-pad", which is not available/,
      );
      await expectFault(
        loadPlugin(backend, `import x from "islet:internal"; export const f = () => x;`),
        "load",
        /"islet:internal"/,
      );
    });

    test("syntax errors and throwing top-level code are load faults naming the file", async () => {
      await expectFault(
        loadPlugin(backend, `export function (`),
        "load",
        new RegExp(TEST_FILENAME),
      );
      await expectFault(
        loadPlugin(backend, `throw new Error("bad config");`),
        "load",
        /bad config.*index\.ts:1/,
      );
    });

    test("top-level await finishes before the module serves, and is on the budget", async () => {
      const m = await loadPlugin(
        backend,
        `const start = await new Promise((r) => setTimeout(() => r("ready"), 20));
         export const state = () => start;`,
      );
      assert.equal(await m.call("state", []), "ready");
      m.dispose();
      const started = Date.now();
      await expectFault(
        loadPlugin(backend, `await new Promise(() => {}); export const f = 1;`),
        "load",
        /top-level await did not finish/,
      );
      assert.ok(Date.now() - started < 2_000);
    });
  });

  describe("globals", () => {
    test("console reaches the log, formatted and capped", async () => {
      const host = recordingHost();
      const m = await loadPlugin(
        backend,
        `export function f() {
           console.log("hello", 1, { a: [1, "two"], b: { c: null } }, undefined);
           console.warn("%s has %d items", "cart", 3);
           console.error(new Error("bad"));
           const cyclic = {}; cyclic.self = cyclic;
           console.info(cyclic);
           console.debug("x".repeat(20000));
         }`,
        { host },
      );
      await m.call("f", []);
      const [log, warn, error, info, debug] = host.logs;
      assert.deepEqual(log, {
        level: "log",
        text: "hello 1 { a: [ 1, 'two' ], b: { c: null } } undefined",
      });
      assert.deepEqual(warn, { level: "warn", text: "cart has 3 items" });
      assert.equal(error?.level, "error");
      assert.match(error?.text ?? "", /^Error: bad\n\s+at f \(/);
      assert.equal(info?.text, "{ self: [Circular] }");
      assert.equal(debug?.level, "debug");
      assert.ok((debug?.text.length ?? 0) < 9_000 && /more characters\]$/.test(debug?.text ?? ""));
      m.dispose();
    });

    test("a console flood is rate-limited and the drop is reported", async () => {
      const host = recordingHost();
      const m = await loadPlugin(
        backend,
        `export function f() { for (let i = 0; i < 5000; i++) console.log("line", i); }`,
        // The rate limit is tested, not the call budget: a busy machine gets all the time it needs.
        { host, limits: { callTimeoutMs: 10_000 } },
      );
      const started = performance.now();
      await m.call("f", []);
      await m.call("f", []);
      // A burst of 500, then 200 a second (each with its "dropped" line) for as long as the flood
      // lasted: ~0.1 s under isolated-vm, ~0.5 s under QuickJS.
      const allowed = 600 + 400 * ((performance.now() - started) / 1000);
      assert.ok(host.logs.length < allowed, `${host.logs.length} lines reached the log`);
      assert.ok(
        host.logs.some(
          (l) =>
            l.level === "warn" && /console lines dropped \(more than 200 a second\)/.test(l.text),
        ),
      );
      m.dispose();
    });

    test("timers fire, intervals repeat and clear, and a call awaiting a timer waits for it", async () => {
      const m = await loadPlugin(
        backend,
        `let ticks = 0; let fired = [];
         export function start() {
           const id = setInterval(() => { if (++ticks === 3) clearInterval(id); }, 5);
           const cancelled = setTimeout(() => fired.push("cancelled"), 5);
           clearTimeout(cancelled);
           setTimeout((a, b) => fired.push(a + b), 1, "x", "y");
         }
         export const state = () => ({ ticks, fired });
         export async function wait(ms) { await new Promise((r) => setTimeout(r, ms)); return "waited"; }`,
      );
      await m.call("start", []);
      await sleep(80);
      assert.deepEqual(await m.call("state", []), { ticks: 3, fired: ["xy"] });
      assert.equal(await m.call("wait", [30]), "waited");
      m.dispose();
    });

    test("timers stop at dispose", async () => {
      const host = recordingHost();
      const m = await loadPlugin(
        backend,
        `export function start() { setInterval(() => console.log("tick"), 5); }`,
        { host },
      );
      await m.call("start", []);
      await sleep(40);
      m.dispose();
      const seen = host.logs.length;
      assert.ok(seen > 0);
      await sleep(40);
      assert.equal(host.logs.length, seen);
    });

    test("process.env holds only the whitelist, frozen; process has nothing else", async () => {
      const host = recordingHost({ env: { ALLOWED: "yes" } });
      const m = await loadPlugin(
        backend,
        `export const f = () => {
           let writable = true;
           try { process.env.ALLOWED = "changed"; } catch { writable = false; }
           return { env: { ...process.env }, keys: Object.keys(process), writable, home: process.env.HOME ?? null };
         };`,
        { host },
      );
      assert.deepEqual(await m.call("f", []), {
        env: { ALLOWED: "yes" },
        keys: ["env"],
        writable: false,
        home: null,
      });
      m.dispose();
    });

    test("no require, module, Buffer or other Node globals; only the documented extras", async () => {
      const m = await loadPlugin(
        backend,
        `export const f = () => ({
           require: typeof require, module: typeof module, Buffer: typeof Buffer, global: typeof global,
           exit: typeof process.exit, binding: typeof process.binding, importMeta: typeof import.meta.resolve,
           extras: ["console", "setTimeout", "setInterval", "clearTimeout", "clearInterval", "queueMicrotask", "fetch", "Headers", "process"].filter((k) => k in globalThis),
           internal: Object.getOwnPropertyNames(globalThis).filter((k) => /islet/i.test(k)),
         });`,
      );
      const result = (await m.call("f", [])) as Record<string, unknown>;
      assert.deepEqual(
        { ...result, extras: (result.extras as string[]).length },
        {
          require: "undefined",
          module: "undefined",
          Buffer: "undefined",
          global: "undefined",
          exit: "undefined",
          binding: "undefined",
          importMeta: "undefined",
          extras: 9,
          internal: [],
        },
      );
      m.dispose();
    });

    test("host services reach HostCapabilities.call as JSON; rejections carry the host's message", async () => {
      const calls: unknown[] = [];
      const host = recordingHost({
        call: async (name, args) => {
          calls.push([name, args]);
          if (name === "fs.exists") throw new Error("denied for a reason");
          return { echoed: args };
        },
      });
      const m = await loadPlugin(
        backend,
        `import { fs } from "@islet/sdk";
         export async function f() {
           const read = await fs.readFile("a.txt");
           let error = null;
           try { await fs.exists("/etc"); } catch (e) { error = e.message; }
           let typeError = null;
           try { await fs.readFile(42); } catch (e) { typeError = e.message; }
           return { read, error, typeError };
         }`,
        { host },
      );
      assert.deepEqual(await m.call("f", []), {
        read: { echoed: ["a.txt"] },
        error: "denied for a reason",
        typeError: "path must be a string",
      });
      assert.deepEqual(calls, [
        ["fs.readFile", ["a.txt"]],
        ["fs.exists", ["/etc"]],
      ]);
      m.dispose();
    });
  });
});
