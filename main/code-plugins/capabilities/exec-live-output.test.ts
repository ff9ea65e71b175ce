/**
 * A plugin tool that runs a program through `@islet/sdk/exec` streams the program's output to its
 * tool card as it arrives, as Bash does: `tool_output` events for that call, in order, coalesced,
 * before its `tool_result`. Two of the plugin's calls running at once cannot be told apart inside
 * the sandbox, so neither card gets the other's lines. The real engine and both sandbox backends.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentEvent } from "../../turn/events.ts";
import { startPluginHarness } from "../../engine/testing.ts";

const YAML = 'description: "runs a slow program"\npermissions:\n  exec: { reason: "runs it" }\n';

const TOOL = `import { exec } from "@islet/sdk/exec";
export function schema() {
  return {
    name: "Slow",
    description: "Runs a slow program",
    parameters: { type: "object", properties: { tag: { type: "string" } }, required: ["tag"] },
  };
}
export async function execute(ctx, args) {
  const t = args.tag;
  const r = await exec(["sh", "-c", \`echo \${t}-first; sleep 1.5; echo \${t}-second >&2; sleep 1.5; echo \${t}-third\`]);
  return r.stdout + r.stderr;
}
export function parallel() { return true; }
`;

for (const backend of ["isolated-vm", "quickjs"]) {
  describe(`plugin exec live output (${backend})`, { timeout: 60_000 }, () => {
    const start = (script: Parameters<typeof startPluginHarness>[0]["script"]) =>
      startPluginHarness({
        plugins: { slow: { yaml: YAML, code: TOOL } },
        flags: { unsafePlugins: true, pluginRuntime: backend },
        // The program takes 3 s; the budget is not what is tested here.
        limits: { callTimeoutMs: 30_000 },
        script,
      });

    it("the program's lines reach the tool card while it runs, in order, before the result", async () => {
      const h = await start([
        { toolCalls: [{ name: "Slow", arguments: { tag: "a" } }] },
        { text: ["ran it"] },
      ]);
      try {
        const result = await h.conversation.submit("run it");
        assert.equal(result.kind === "turn" && result.outcome.status, "done", h.warnings.join());
        const call = h.of("tool_call")[0];
        const live = h.of("tool_output");
        const done = h.events.findIndex((e) => e.type === "tool_result");
        assert.ok(live.length >= 2, `the output came in pieces: ${JSON.stringify(live)}`);
        for (const e of live) assert.equal(e.id, call.id);
        // The first line went out on its own, long before the program ended.
        assert.match(live[0].text, /a-first/);
        assert.doesNotMatch(live[0].text, /a-third/);
        assert.ok(live.every((e) => h.events.indexOf(e) < done));
        assert.equal(live.map((e) => e.text).join(""), "a-first\na-second\na-third\n");
        const saved = (await h.engine.history(h.conversation.id)).map((e) => e.type);
        assert.ok(!saved.includes("tool_output"), "live output is not saved");
      } finally {
        await h.close();
      }
    });

    it("two calls of the plugin at once: no card shows the other's lines", async () => {
      const h = await start([
        {
          toolCalls: [
            { name: "Slow", arguments: { tag: "x" } },
            { name: "Slow", arguments: { tag: "y" } },
          ],
        },
        { text: ["ran both"] },
      ]);
      try {
        await h.conversation.submit("run both");
        const calls = h.of("tool_call");
        assert.equal(calls.length, 2);
        // Each ran whole, its output in its own result.
        const outputs = h.of("tool_result").map((r) => r.output);
        assert.ok(outputs.some((o) => /x-first[\s\S]*x-third/.test(o) && !o.includes("y-")));
        assert.ok(outputs.some((o) => /y-first[\s\S]*y-third/.test(o) && !o.includes("x-")));
        const shown = (id: string) =>
          h
            .of("tool_output")
            .filter((e: Extract<AgentEvent, { type: "tool_output" }>) => e.id === id)
            .map((e) => e.text)
            .join("");
        assert.doesNotMatch(shown(calls[0].id), /y-/);
        assert.doesNotMatch(shown(calls[1].id), /x-/);
      } finally {
        await h.close();
      }
    });
  });
}
