/**
 * The hook timeline of a real turn: real plugins in real sandboxes inject, append system text,
 * disable tools, notify, rewrite arguments, block a tool and replace its output, and one's
 * condition does not match. Every hook call's entry says who, where in the turn, whether its
 * condition matched, and what it changed into; the saved history holds the same entries.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { AgentEvent, HookTraceEntry } from "../core/events.ts";
import { startEngineRig, type EngineRig } from "./testing.ts";
import { NOBODY } from "../host/questions.ts";

type Trace = Extract<AgentEvent, { type: "hook_trace" }>;

const plugin = (description: string, code: string, condition?: string) => ({
  "plugin.yaml": `description: "${description}"\n${condition ? `condition: "${condition}"\n` : ""}`,
  "index.ts": code,
});

function files(plugins: Record<string, Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, f] of Object.entries(plugins))
    for (const [file, text] of Object.entries(f)) out[`home/plugins/${name}/${file}`] = text;
  return out;
}

describe("hook timeline of a turn", () => {
  let rig: EngineRig;

  before(async () => {
    const plugins = files({
      injector: plugin(
        "Injects a reminder",
        'export function beforeChat() { return { message: "mind the rules", role: "user" }; }\n',
      ),
      "system-note": plugin(
        "Appends system text and disables Bash",
        'export function beforeChat() { return { request: { appendSystem: "Be terse." }, disableTools: ["Bash"] }; }\n',
      ),
      announcer: plugin(
        "Greets when there are no todos",
        'export function beforeChat() { return { notice: "no todos yet" }; }\n',
        "todo_empty",
      ),
      "pending-only": plugin(
        "Only while todos are pending",
        'export function beforeChat() { return { notice: "never" }; }\n',
        "todo_pending",
      ),
      rewriter: plugin(
        "Reads b.txt instead",
        'export function beforeToolExecution(ctx) { return ctx.toolName === "Read" ? { arguments: { path: "b.txt" } } : undefined; }\n',
      ),
      blocker: plugin(
        "No Grep",
        'export function beforeToolExecution(ctx) { return ctx.toolName === "Grep" ? { block: true, message: "no grepping" } : undefined; }\n',
      ),
      filter: plugin(
        "Replaces Read output",
        'export function afterToolExecution(ctx) { return ctx.tool.name === "Read" ? { output: "filtered" } : undefined; }\n',
      ),
    });
    rig = await startEngineRig({
      prefix: "islet-hook-trace-",
      files: { "work/a.txt": "file a\n", "work/b.txt": "file b\n", ...plugins },
      script: [
        {
          toolCalls: [
            { id: "call_read", name: "Read", arguments: { path: "a.txt" } },
            { id: "call_grep", name: "Grep", arguments: { pattern: "file" } },
          ],
        },
        { text: ["Done."] },
      ],
      plugins: {},
      questions: NOBODY,
    });
  });

  after(() => rig.close());

  it("says per hook call who ran, where, whether its condition matched, and what it changed", async () => {
    const { conv, events } = await rig.open();
    const result = await conv.submit("read a.txt and grep");
    assert.ok(result.kind === "turn" && result.outcome.status === "done");

    const traces = events.filter((e): e is Trace => e.type === "hook_trace");
    const at = (timing: HookTraceEntry["timing"], step: number, toolCallId?: string) => {
      const found = traces.filter(
        (t) => t.entries[0]?.timing === timing && t.step === step && t.toolCallId === toolCallId,
      );
      assert.equal(found.length, 1, `one ${timing} trace at step ${step} ${toolCallId ?? ""}`);
      assert.equal(found[0].turn, 1);
      return new Map(found[0].entries.map((e) => [e.source, e]));
    };
    const strip = ({ durationMs, ...rest }: HookTraceEntry) => {
      assert.ok(durationMs >= 0);
      return rest;
    };

    const beforeChat = at("beforeChat", 1);
    assert.deepEqual(strip(beforeChat.get("announcer")!), {
      source: "announcer",
      timing: "beforeChat",
      status: "ok",
      condition: { text: "todo_empty", matched: true },
      changed: ["notice"],
      effects: [{ change: "notice", summary: "no todos yet" }],
    });
    assert.deepEqual(strip(beforeChat.get("pending-only")!), {
      source: "pending-only",
      timing: "beforeChat",
      status: "skipped",
      detail: "condition false: todo_pending",
      condition: { text: "todo_pending", matched: false },
      changed: [],
    });
    assert.deepEqual(beforeChat.get("injector")!.effects, [
      { change: "message", summary: "mind the rules" },
    ]);
    assert.deepEqual(beforeChat.get("system-note")!.effects, [
      { change: "disableTools", summary: "Bash" },
      { change: "appendSystem", summary: "Be terse." },
    ]);

    const beforeRead = at("beforeToolExecution", 1, "call_read");
    assert.deepEqual(beforeRead.get("rewriter")!.effects, [
      { change: "arguments", summary: '{"path":"b.txt"}' },
    ]);
    assert.deepEqual(beforeRead.get("blocker")!.changed, []);
    const beforeGrep = at("beforeToolExecution", 1, "call_grep");
    assert.deepEqual(beforeGrep.get("blocker")!.effects, [
      { change: "block", summary: "Grep: no grepping" },
    ]);
    const afterRead = at("afterToolExecution", 1, "call_read");
    assert.deepEqual(afterRead.get("filter")!.effects, [{ change: "output", summary: "filtered" }]);
    assert.equal(traces.find((t) => t.toolCallId === "call_read")?.toolName, "Read");
    // The next model step has its own beforeChat entries.
    assert.equal(at("beforeChat", 2).get("injector")!.status, "ok");

    // What the changes did: the model got b.txt's Read replaced, Grep blocked.
    const results = events.filter((e) => e.type === "tool_result");
    assert.deepEqual(
      results.map((r) => [r.id, r.output, r.error]),
      [
        ["call_read", "filtered", false],
        ["call_grep", "Tool call blocked by blocker. no grepping", true],
      ],
    );

    // The timeline survives a restart: the saved history has the same traces.
    const saved = (await rig.engine.history(conv.id)).filter((e) => e.type === "hook_trace");
    assert.deepEqual(saved, traces);
    await conv.close();
    assert.deepEqual(rig.warnings, []);
  });
});
