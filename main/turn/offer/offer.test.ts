/**
 * The prompt budget in real turns of the loop (a real provider against the fake server) with
 * 240 MCP-shaped and plugin tools: what is chosen, what must stay, what was used lately, and
 * that a turn's choice holds for its whole turn.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { DEFAULT_AGENT, type AgentConfig } from "../../agents/definition.ts";
import { defineTool } from "../../tools/define.ts";
import { builtinTools } from "../../tools/index.ts";
import { ToolRegistry } from "../../tools/registry.ts";
import type { ToolSource } from "../../tools/types.ts";
import { sentTools, startHarness } from "../testing.ts";
import type { ScriptedResponse } from "../../providers/testing/index.ts";
import { mentions } from "./choose.ts";

const SERVERS = "github linear notion stripe sentry datadog figma slack".split(" ");
const VERBS = "create list update delete search export archive sync".split(" ");
const NOUNS = "issue page invoice alert dashboard file channel".split(" ");

function manyTools(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const t of builtinTools()) registry.register(t);
  const add = (name: string, description: string, source: ToolSource): void => {
    registry.register(
      defineTool({
        name,
        description,
        args: { input: z.string().optional().describe("What to act on") },
        parallel: true,
        source,
        async execute(args) {
          return `${name} ran on ${args.input ?? "nothing"}`;
        },
      }),
    );
  };
  for (const server of SERVERS)
    for (const verb of VERBS)
      for (const noun of NOUNS.slice(0, 3 + (server.length % 4)))
        add(`mcp__${server}__${verb}_${noun}`, `${verb} a ${noun} in ${server}`, "mcp");
  for (let i = 0; i < 40; i++)
    add(`plugin_tool_${i}`, `${VERBS[i % 8]} ${NOUNS[i % 7]}s kept by plugin ${i}`, "plugin");
  return registry;
}

async function harness(script: ScriptedResponse[], agent: Partial<AgentConfig> = {}) {
  const tools = manyTools();
  const h = await startHarness(script, {
    contextLength: 4096,
    agents: [{ ...DEFAULT_AGENT, ...agent }],
    deps: { tools },
  });
  return { ...h, total: tools.list().filter((t) => t.source !== "builtin").length };
}

test("a big MCP catalog: the budget offers what the prompt is about, the rest is searchable", async () => {
  const h = await harness([{ text: ["ok"] }]);
  try {
    assert.ok(h.total >= 200, `${h.total} tools`);
    await h.session.send("archive the old invoice in stripe");
    const names = sentTools(h.server, 0);
    assert.ok(names.includes("mcp__stripe__archive_invoice"), names.join(", "));
    assert.ok(names.includes("SearchTools"));
    const extension = names.filter((n) => n.startsWith("mcp__") || n.startsWith("plugin_"));
    assert.ok(extension.length < h.total / 4, `${extension.length} of ${h.total} offered`);
    const [event] = h.of("extensions_offered");
    assert.equal(event.total, h.total);
    assert.equal(event.offered, extension.length);
    assert.ok(event.tokens <= event.budget && event.budget <= 409, JSON.stringify(event));
  } finally {
    await h.close();
  }
});

test("always offered under a 1% budget: the agent's tools and a command's allowed-tools", async () => {
  const h = await harness([{ text: ["a"] }, { text: ["b"] }], {
    extensionsBudget: 1,
    tools: ["Read", "mcp__notion__*", "plugin_tool_3"],
  });
  try {
    await h.session.send("hello there");
    const first = sentTools(h.server, 0);
    assert.ok(first.includes("plugin_tool_3"), first.join(", "));
    const notion = first.filter((n) => n.startsWith("mcp__notion__"));
    assert.equal(
      notion.length,
      VERBS.length * (3 + ("notion".length % 4)),
      "the pattern keeps all",
    );
    // allowed-tools can name only what the agent's tools allow; both hold under a tiny budget.
    await h.session.send("go", { preApproved: ["mcp__notion__sync_page", "Read"] });
    assert.ok(sentTools(h.server, 1).includes("mcp__notion__sync_page"));
  } finally {
    await h.close();
  }
  const g = await harness([{ text: ["a"] }], { extensionsBudget: 1 });
  try {
    await g.session.send("do it", { preApproved: ["mcp__github__delete_issue"] });
    const names = sentTools(g.server, 0);
    assert.ok(names.includes("mcp__github__delete_issue"), "allowed-tools keeps it");
    assert.ok(!names.includes("mcp__github__create_issue"), "the budget holds for the rest");
  } finally {
    await g.close();
  }
});

test("tools the turn may not call take no place in its budget", async () => {
  const h = await harness([{ text: ["ok"] }]);
  try {
    await h.session.send("archive the old invoice in stripe", {
      disallowedTools: ["mcp__stripe__*"],
    });
    const names = sentTools(h.server, 0);
    assert.ok(!names.some((n) => n.startsWith("mcp__stripe__")), names.join(", "));
    const extension = names.filter((n) => n.startsWith("mcp__") || n.startsWith("plugin_"));
    const [event] = h.of("extensions_offered");
    assert.equal(event.offered, extension.length, "every item chosen is one the model gets");
  } finally {
    await h.close();
  }
});

test("a tool found and used in one turn is still offered in the next (used lately)", async () => {
  const h = await harness([
    { toolCalls: [{ id: "s", name: "SearchTools", arguments: { query: "datadog dashboard" } }] },
    { toolCalls: [{ id: "c", name: "mcp__datadog__export_dashboard", arguments: {} }] },
    { text: ["exported"] },
    { text: ["sure"] },
  ]);
  try {
    await h.session.send("I need a copy of our monitoring overview");
    assert.ok(!sentTools(h.server, 0).includes("mcp__datadog__export_dashboard"));
    assert.ok(sentTools(h.server, 1).includes("mcp__datadog__export_dashboard"));
    const ran = h.of("tool_result").find((r) => r.name === "mcp__datadog__export_dashboard");
    assert.equal(ran?.error, false, ran?.output);
    await h.session.send("thanks, and now a haiku please");
    assert.ok(sentTools(h.server, 3).includes("mcp__datadog__export_dashboard"));
    assert.ok(!sentTools(h.server, 3).includes("mcp__datadog__sync_dashboard"));
  } finally {
    await h.close();
  }
});

test("a name said in the prompt is offered; a name inside another word is not a mention", () => {
  assert.equal(mentions("please run /code-review:review now", "code-review:review"), true);
  assert.equal(mentions("use mcp__github__create_issue.", "mcp__github__create_issue"), true);
  assert.equal(mentions("the pretest step", "test"), false);
  assert.equal(mentions("PDF-Extract it", "pdf-extract"), true);
});
