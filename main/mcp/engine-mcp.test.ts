/**
 * MCP tools in a real turn: the project's .mcp.json (loaded once the workspace is trusted) starts
 * server-everything over stdio when a conversation opens; the loopback model calls its tools; the approval
 * policy asks about them; a code plugin's hook sees one MCP call and blocks it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { AgentEvent } from "../core/events.ts";
import type { Question, QuestionPort } from "../host/questions.ts";
import { createEngine } from "../engine/bootstrap.ts";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { EVERYTHING } from "./testing/servers.ts";
import { formatProblem } from "../host/problem.ts";

const mcpJson = JSON.stringify({
  mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
});

const blocker = {
  "plugin.yaml": 'description: "No sums"\n',
  "index.ts":
    "export function beforeToolExecution(ctx) {\n" +
    '  if (ctx.toolName === "mcp__everything__get-sum")\n' +
    "    return { block: true, message: `saw ${ctx.toolName} with a=${ctx.arguments.a}` };\n" +
    "}\n",
};

test("an MCP tool call through the turn loop: approval asked, a plugin hook blocks another", async () => {
  const dirs = tempDir("islet-mcp-engine-");
  dirs.write({
    "work/.mcp.json": mcpJson,
    "home/plugins/no-sums/plugin.yaml": blocker["plugin.yaml"],
    "home/plugins/no-sums/index.ts": blocker["index.ts"],
  });
  const model = await startFakeOpenAI([
    {
      toolCalls: [
        { id: "call_echo", name: "mcp__everything__echo", arguments: { message: "via model" } },
        { id: "call_sum", name: "mcp__everything__get-sum", arguments: { a: 4, b: 5 } },
      ],
    },
    { text: ["Done."] },
  ]);
  const asked: string[] = [];
  const questions: QuestionPort = {
    ask: async (q) => {
      const question = q as Question;
      asked.push(question.kind === "approval" ? `approval ${question.tool}` : question.kind);
      return (q.kind === "workspace-trust" ? "once" : "allow") as never;
    },
  };
  const warnings: string[] = [];
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    plugins: {},
    questions,
    flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
    warn: (p) => warnings.push(formatProblem(p)),
  });
  try {
    assert.deepEqual(
      engine.mcp.list().map((s) => [s.name, s.status, s.source]),
      [["everything", "stopped", ".mcp.json"]],
    );
    const events: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => events.push(e) });
    await engine.mcp.startAll(); // opening started it; a turn would not wait for it
    const result = await conv.submit("echo and add");
    assert.ok(result.kind === "turn" && result.outcome.status === "done", JSON.stringify(result));

    const offered = (
      model.chatRequests[0].body as { tools: { function: { name: string } }[] }
    ).tools.map((t) => t.function.name);
    assert.ok(offered.includes("mcp__everything__echo"), offered.join(","));
    // MCP tools ask by default, like any tool without a rule; the blocked one is never asked about.
    assert.deepEqual(asked, ["workspace-trust", "approval mcp__everything__echo"]);
    const results = events.filter((e) => e.type === "tool_result");
    assert.deepEqual(
      results.map((r) => [r.id, r.error]),
      [
        ["call_echo", false],
        ["call_sum", true],
      ],
    );
    assert.match(results[0].output, /Echo: via model/);
    assert.equal(
      results[1].output,
      "Tool call blocked by no-sums. saw mcp__everything__get-sum with a=4",
    );
    assert.deepEqual(conv.session.context().mcpServers, ["everything"]);
    assert.deepEqual(warnings, []);
    await conv.close();
  } finally {
    await engine.close();
    await model.close();
    dirs.remove();
  }
  assert.deepEqual(engine.mcp.list(), [], "closing the engine stops its servers");
});

test("an untrusted workspace's .mcp.json is held back, with one line saying so", async () => {
  const dirs = tempDir("islet-mcp-untrusted-");
  dirs.write({ "work/.mcp.json": mcpJson });
  const warnings: string[] = [];
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    flags: { provider: "openai-compatible", baseUrl: "http://127.0.0.1:9", model: "m" },
    warn: (p) => warnings.push(formatProblem(p)),
  });
  try {
    assert.deepEqual(engine.mcp.list(), []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /not trusted.*MCP servers from \.mcp\.json/);
  } finally {
    await engine.close();
    dirs.remove();
  }
});
