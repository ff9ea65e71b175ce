/**
 * Plugins through the real engine: isolates, hooks, tools, commands, faults, reload — once per
 * sandbox backend (chosen the way users choose it, with --plugin-runtime).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SANDBOX_BACKENDS } from "../../sandbox/backends.ts";
import { startPluginHarness as startHarness } from "../../engine/testing.ts";
import { formatProblem } from "../../host/problem.ts";

for (const backend of SANDBOX_BACKENDS) {
  describe(`[${backend}]`, () => {
    const startPluginHarness = (opts: Parameters<typeof startHarness>[0]) =>
      startHarness({ ...opts, flags: { pluginRuntime: backend, ...opts.flags } });

    test("hooks inject, keep state between calls, see their config, and only whitelisted env", async () => {
      const h = await startPluginHarness({
        plugins: {
          counter: {
            yaml: 'description: counts\nenv: [VISIBLE]\nconfig: { every: 1, label: "n" }\n',
            code: `
          let calls = 0;
          export function beforeChat(ctx) {
            calls++;
            return {
              message: ctx.pluginConfig.label + "=" + calls + " env=" + Object.keys(process.env).join(","),
              role: "user",
              prefix: "[counter] ",
              eject: true,
            };
          }`,
          },
        },
        features: "plugins:\n  config:\n    local:\n      counter: { label: count }\n",
        env: { VISIBLE: "yes", SECRET: "no" },
        script: [{ text: ["one"] }, { text: ["two"] }],
      });
      try {
        await h.conversation.submit("a");
        await h.conversation.submit("b");
        assert.equal(h.sent(0).at(-1)?.content, "[counter] count=1 env=VISIBLE");
        assert.equal(h.sent(1).at(-1)?.content, "[counter] count=2 env=VISIBLE");
        assert.ok(!JSON.stringify(h.sent(1)).includes("count=1"), "ejected after its turn");
      } finally {
        await h.close();
      }
    });

    test("conditions gate every call and once hooks fire a single time (kept across /reload)", async () => {
      const h = await startPluginHarness({
        plugins: {
          late: {
            yaml: 'condition: "history_gt:2"\n',
            code: `export function beforeChat() { return { notice: "late" }; }`,
          },
          first: {
            yaml: "once: true\n",
            code: `export function beforeChat() { return { notice: "first" }; }`,
          },
        },
        script: [{ text: ["1"] }, { text: ["2"] }, { text: ["3"] }],
      });
      try {
        await h.conversation.submit("a");
        await h.conversation.submit("/reload");
        await h.conversation.submit("b");
        await h.conversation.submit("c");
        assert.deepEqual(
          h.of("notice").map((n) => n.text),
          ["first", "late", "late"],
        );
        const plugins = await h.conversation.submit("/plugins");
        assert.ok(plugins.kind === "command");
        assert.match(plugins.output, /first\/BeforeChat\s+enabled once=true \(fired\)/);
        assert.match(plugins.output, /late\/BeforeChat\s+enabled condition="history_gt:2"/);
      } finally {
        await h.close();
      }
    });

    test("a plugin tool is offered, validated and run; a plugin command runs and can forward", async () => {
      const h = await startPluginHarness({
        plugins: {
          greeter: {
            code: `
          export function schema() {
            return { name: "Greet", description: "Greets someone.", parameters: { type: "object", properties: { who: { type: "string", description: "name" } }, required: ["who"] } };
          }
          export async function execute(ctx, args) { return "Hello, " + args.who + " (agent " + ctx.agent + ")"; }
          export function command() { return { name: "shout", description: "Shouts.", hints: "[text]", forward: true }; }
          export function executeCommand(args) { return { output: args.toUpperCase() }; }`,
          },
        },
        script: [
          {
            toolCalls: [
              { name: "Greet", arguments: { who: "Ann" } },
              { name: "Greet", arguments: { who: "Bo", extra: 1 } },
            ],
          },
          { text: ["greeted"] },
          { text: ["heard you"] },
        ],
      });
      try {
        await h.conversation.submit("greet");
        const tools = (
          h.server.chatRequests[0].body as { tools: { function: { name: string } }[] }
        ).tools.map((t) => t.function.name);
        assert.ok(tools.includes("Greet"));
        const results = h.of("tool_result");
        assert.equal(results[0].output, "Hello, Ann (agent default)");
        assert.equal(results[1].error, true);
        assert.match(results[1].output, /unknown field: "extra"/);
        const r = await h.conversation.submit("/shout make it loud");
        assert.ok(r.kind === "command" && r.outcome?.text === "heard you");
        assert.equal(h.sent(2).at(-1)?.content, "MAKE IT LOUD");
      } finally {
        await h.close();
      }
    });

    test("faults are contained: throws, timeouts and garbage become notices and the turn goes on", async () => {
      const h = await startPluginHarness({
        plugins: {
          a_thrower: { code: `export function beforeChat() { throw new Error("kaput"); }` },
          b_looper: { code: `export function beforeChat() { for (;;) {} }` },
          c_garbage: { code: `export function beforeChat() { return { disableTools: "Bash" }; }` },
          d_fine: { code: `export function beforeChat() { return { notice: "still here" }; }` },
        },
        script: [{ text: ["answered"] }],
      });
      try {
        const r = await h.conversation.submit("hi");
        assert.ok(r.kind === "turn" && r.outcome.text === "answered");
        const notices = h.of("notice").map((n) => `${n.source}: ${n.text}`);
        assert.match(notices[0], /^a_thrower: a_thrower: beforeChat failed: threw: kaput/);
        assert.match(notices[1], /^b_looper: .*did not finish within \d+ ms/);
        assert.match(notices[2], /^c_garbage: .*malformed result \(disableTools: /);
        assert.equal(notices[3], "d_fine: still here");
      } finally {
        await h.close();
      }
    });

    test("WebAssembly exists only for a plugin whose plugin.yaml asks for it (never on QuickJS)", async () => {
      const probe = `export function beforeChat() {
        try { return { notice: "wasm " + WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])) }; }
        catch (e) { return { notice: String(e.message) }; }
      }`;
      const h = await startPluginHarness({
        plugins: {
          asks: { yaml: 'permissions: { wasm: { reason: "decodes images" } }\n', code: probe },
          silent: { code: probe },
        },
        script: [{ text: ["answered"] }],
      });
      try {
        await h.conversation.submit("hi");
        const notices = h.of("notice").map((n) => `${n.source}: ${n.text}`);
        assert.deepEqual(notices, [
          backend === "quickjs" ? "asks: 'WebAssembly' is not defined" : "asks: wasm true",
          backend === "quickjs"
            ? "silent: 'WebAssembly' is not defined"
            : "silent: WebAssembly is not defined",
        ]);
      } finally {
        await h.close();
      }
    });

    test("a plugin that keeps faulting is marked errored and skipped", async () => {
      const h = await startPluginHarness({
        plugins: { flaky: { code: `export function beforeChat() { throw new Error("again"); }` } },
        script: Array.from({ length: 7 }, () => ({ text: ["ok"] })),
      });
      try {
        for (let i = 0; i < 7; i++) await h.conversation.submit(`q${i}`);
        const info = h.engine.plugins!.get("flaky")!;
        assert.equal(info.plugin.status, "errored");
        const trace = h
          .of("hook_trace")
          .flatMap((t) => t.entries)
          .filter((e) => e.source === "flaky");
        assert.equal(trace.filter((e) => e.status === "error").length, 5);
        assert.equal(trace.at(-1)?.status, "skipped");
      } finally {
        await h.close();
      }
    });

    test("load errors: name conflicts, missing execute, bad condition, signature warnings", async () => {
      const h = await startPluginHarness({
        plugins: {
          clash: {
            code: `export function schema() { return { name: "Read", description: "mine" }; } export function execute() { return "x"; }`,
          },
          takeover: {
            yaml: "override: true\n",
            code: `export function schema() { return { name: "Ls", description: "my Ls" }; } export function execute() { return "custom ls"; }`,
          },
          half: { code: `export function schema() { return { name: "Half", description: "h" }; }` },
          badcond: {
            yaml: 'condition: "contxt_above:5"\n',
            code: `export function beforeChat() {}`,
          },
          odd: { code: `export function beforeChat(ctx, extra) {} export const parallel = true;` },
        },
      });
      try {
        const rt = h.engine.plugins!;
        assert.equal(rt.get("clash")!.plugin.status, "failed");
        assert.match(rt.get("clash")!.plugin.error!, /Read.*conflicts.*override: true/);
        assert.equal(h.engine.tools.get("Ls")?.description, "my Ls");
        assert.match(rt.get("half")!.plugin.error!, /needs both schema\(\) and execute\(\)/);
        // An invalid condition is a manifest error: the plugin is reported and not loaded.
        assert.equal(rt.get("badcond"), undefined);
        assert.ok(
          rt.problems.some(
            (p) =>
              /badcond.*plugin\.yaml/.test(p.file ?? "") &&
              /did you mean context_above/.test(formatProblem(p)),
          ),
          JSON.stringify(rt.problems),
        );
        assert.ok(h.warnings.some((w) => /odd: beforeChat declares 2 parameters/.test(w)));
        assert.ok(
          h.warnings.some((w) => /odd: parallel is exported but is not a function/.test(w)),
        );
      } finally {
        await h.close();
      }
    });

    test("reload: a changed plugin swaps in with fresh state; a broken edit keeps the last good version", async () => {
      const h = await startPluginHarness({
        plugins: {
          v: {
            code: `let n = 0; export function beforeChat() { n++; return { notice: "v1 call " + n }; }`,
          },
        },
        script: Array.from({ length: 4 }, () => ({ text: ["ok"] })),
      });
      try {
        await h.conversation.submit("a");
        await h.write("v", {
          code: `let n = 0; export function beforeChat() { n++; return { notice: "v2 call " + n }; }`,
        });
        const reload = await h.conversation.submit("/reload");
        assert.ok(reload.kind === "command" && /Reloaded 1 of 1/.test(reload.output));
        await h.conversation.submit("b");
        await h.write("v", { code: `export function beforeChat( { syntax error` });
        const broken = await h.conversation.submit("/reload");
        assert.ok(
          broken.kind === "command" && /v: .*index\.ts:1:\d+/.test(broken.output),
          broken.kind === "command" ? broken.output : "",
        );
        await h.conversation.submit("c");
        assert.deepEqual(
          h.of("notice").map((n) => n.text),
          ["v1 call 1", "v2 call 1", "v2 call 2"],
        );
        assert.match(h.engine.plugins!.get("v")!.reloadError ?? "", /index\.ts/);
      } finally {
        await h.close();
      }
    });

    test("/assert evaluates a condition against the session", async () => {
      const h = await startPluginHarness({
        plugins: {},
        script: [{ text: ["a"] }, { text: ["b"] }],
      });
      try {
        await h.conversation.submit("one");
        const yes = await h.conversation.submit("/assert history_gt:1 and not todo_pending");
        assert.ok(
          yes.kind === "command" && yes.output === "history_gt:1 and not todo_pending: true",
        );
        const no = await h.conversation.submit("/assert turns_gt:5");
        assert.ok(no.kind === "command" && no.output === "turns_gt:5: false");
        await assert.rejects(h.conversation.submit("/assert turnz_gt:5"), /did you mean turns_gt/);
      } finally {
        await h.close();
      }
    });

    test("a slow hook is named before it times out", async () => {
      const h = await startPluginHarness({
        plugins: {
          sloth: {
            code: `export async function beforeChat() { await new Promise((r) => setTimeout(r, 600)); }`,
          },
        },
        script: [{ text: ["ok"] }],
        limits: { callTimeoutMs: 2000 },
      });
      try {
        await h.conversation.submit("hi");
        assert.ok(
          h.warnings.some((w) => /^sloth: beforeChat took \d+ ms/.test(w)),
          h.warnings.join("\n"),
        );
      } finally {
        await h.close();
      }
    });

    test("plugins run in the backend chosen in features/plugins.yaml or with --plugin-runtime", async () => {
      // V8 has Atomics; QuickJS's WASM build does not.
      const probe = {
        code: `export function beforeChat() { return { notice: typeof Atomics === "object" ? "isolated-vm" : "quickjs" }; }`,
      };
      const viaFile = await startHarness({
        plugins: { probe },
        features: `plugins:\n  runtime: ${backend}\n`,
        script: [{ text: ["ok"] }],
      });
      const viaFlag = await startPluginHarness({ plugins: { probe }, script: [{ text: ["ok"] }] });
      try {
        for (const h of [viaFile, viaFlag]) {
          await h.conversation.submit("hi");
          assert.deepEqual(
            h.of("notice").map((n) => n.text),
            [backend],
          );
        }
      } finally {
        await viaFile.close();
        await viaFlag.close();
      }
    });
  });
}
