/**
 * The prompt budget for extensions through the real engine: 300 Claude Code plugins (skills,
 * agents, commands) and code plugins' tools against a model with a 4k window. The turn starts,
 * the relevant skill is listed, SearchTools reaches the rest in the same turn, the same
 * conversation gets the same request, and what must be offered survives a tiny budget.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { AgentEvent } from "../core/events.ts";
import { estimateText, estimateTools } from "../turn/tokens.ts";
import { startConfiguredEngine, startPluginHarness, type PluginHarness } from "./testing.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { claudePlugins, TOOL_PLUGINS } from "./testing/extension-catalog.ts";
import type { ScriptedResponse } from "../providers/testing/index.ts";

const SMALL_MODEL = { models: [{ id: "m", object: "model", max_model_len: 4096 }] };

async function ecosystem(
  script: ScriptedResponse[],
  extra: { agents?: Record<string, string>; agent?: string } = {},
): Promise<PluginHarness> {
  return startPluginHarness({
    plugins: TOOL_PLUGINS,
    homeFiles: claudePlugins(),
    server: SMALL_MODEL,
    script,
    ...extra,
  });
}

interface Body {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string; description: string; parameters: unknown } }[];
}

const body = (h: PluginHarness, i: number): Body => h.server.chatRequests[i].body as Body;
const system = (b: Body): string => b.messages.find((m) => m.role === "system")?.content ?? "";
const toolNames = (b: Body): string[] => (b.tools ?? []).map((t) => t.function.name);
const BUILTIN = new Set(["Read", "Write", "Patch", "Bash", "Glob", "Grep", "Ls", "TodoWrite"]);
const FIXED = new Set([...BUILTIN, "Done", "Skill", "Task", "SearchTools", "activate_plugin"]);

/** The listed skills (`- name: …` lines inside <skills>). */
function skillLines(b: Body): string[] {
  const m = /<skills>\n([\s\S]*?)<\/skills>/.exec(system(b));
  return (m?.[1] ?? "").split("\n").filter((l) => l.startsWith("- "));
}

function agentLines(b: Body): string[] {
  const task = b.tools?.find((t) => t.function.name === "Task");
  return (task?.function.description ?? "").split("\n").filter((l) => l.startsWith("- "));
}

/** Tokens the extensions take in a request: their listing lines and their tools. */
function extensionTokens(b: Body): number {
  const lines = [...skillLines(b), ...agentLines(b)];
  const tools = (b.tools ?? []).filter((t) => !FIXED.has(t.function.name));
  return (
    estimateText(lines.map((l) => `${l}\n`).join("")) +
    estimateTools(tools.map((t) => ({ ...t.function, parameters: t.function.parameters as never })))
  );
}

function requestTokens(b: Body): number {
  const tools = (b.tools ?? []).map((t) => ({
    ...t.function,
    parameters: t.function.parameters as never,
  }));
  return (
    estimateTools(tools) + b.messages.reduce((n, m) => n + estimateText(m.content ?? "") + 4, 0)
  );
}

const offered = (h: PluginHarness): Extract<AgentEvent, { type: "extensions_offered" }>[] =>
  h.of("extensions_offered");

test("a 4k-window model with 300 plugins: the turn fits, the invoice skill is listed, extensions stay in their budget", async () => {
  const h = await ecosystem([{ text: ["I will use the invoice skill."] }]);
  try {
    await h.conversation.submit("Extract the line items from my invoice.pdf into a table");
    const b = body(h, 0);
    assert.ok(requestTokens(b) <= 4096, `the request fits the window (${requestTokens(b)})`);
    const skills = skillLines(b);
    assert.ok(
      skills.some((l) => l.startsWith("- billing-tools:invoice-pdf:")),
      `the invoice skill is listed:\n${skills.join("\n")}`,
    );
    assert.ok(
      extensionTokens(b) <= Math.floor(4096 * 0.1),
      `extensions take ${extensionTokens(b)} tokens`,
    );
    assert.ok(toolNames(b).includes("SearchTools"), "the rest is one search away");
    const [event] = offered(h);
    assert.ok(event, "the timeline is told");
    assert.ok(event.total >= 300 + 150 + 3, `every extension counted (${event.total})`);
    assert.ok(event.offered < event.total && event.offered >= 1);
    assert.ok(event.tokens <= event.budget && event.budget <= 410, JSON.stringify(event));
    assert.equal(event.searched, false);
  } finally {
    await h.close();
  }
});

test("SearchTools finds a tool that was not offered and the model calls it in the same turn", async () => {
  const h = await ecosystem([
    { toolCalls: [{ id: "s1", name: "SearchTools", arguments: { query: "exchange rate" } }] },
    { toolCalls: [{ id: "c1", name: "CurrencyConvert", arguments: { text: "10 EUR to USD" } }] },
    { text: ["10 EUR is about 11 USD."] },
  ]);
  try {
    await h.conversation.submit("Work out what 10 euros come to in dollars");
    const [first, second] = [body(h, 0), body(h, 1)];
    assert.ok(!toolNames(first).includes("CurrencyConvert"), "not offered at first");
    const found = h.of("tool_result").find((r) => r.name === "SearchTools");
    assert.match(found?.output ?? "", /CurrencyConvert \(a tool: call it directly\)/);
    assert.ok(toolNames(second).includes("CurrencyConvert"), "offered on the next call");
    // Within a turn the offer only grows: the second call keeps all the first had.
    for (const name of toolNames(first)) assert.ok(toolNames(second).includes(name), name);
    for (const line of skillLines(first)) assert.ok(skillLines(second).includes(line), line);
    const result = h.of("tool_result").find((r) => r.name === "CurrencyConvert");
    assert.equal(result?.error, false, result?.output);
    assert.equal(result?.output, "converted: 10 EUR to USD");
    const events = offered(h);
    assert.equal(events.length, 2, "told when chosen and when the search added to it");
    assert.equal(events[1].searched, true);
    assert.ok(events[1].offered > events[0].offered);
  } finally {
    await h.close();
  }
});

test("a skill SearchTools finds is listed on the next call and the Skill tool loads it", async () => {
  const h = await ecosystem([
    { toolCalls: [{ id: "s1", name: "SearchTools", arguments: { query: "grafana dashboards" } }] },
    {
      toolCalls: [
        { id: "k1", name: "Skill", arguments: { skill: "grafana-monitor:monitor-grafana" } },
      ],
    },
    { text: ["Following the skill."] },
  ]);
  try {
    await h.conversation.submit("Our charts look wrong since Tuesday");
    const listed = (i: number) => skillLines(body(h, i)).some((l) => l.includes("monitor-grafana"));
    assert.equal(listed(0), false, "not listed at first");
    assert.match(
      h.of("tool_result").find((r) => r.name === "SearchTools")?.output ?? "",
      /grafana-monitor:monitor-grafana \(a skill: load it with the Skill tool\)/,
    );
    assert.equal(listed(1), true, "listed on the next call of the turn");
    const loaded = h.of("tool_result").find((r) => r.name === "Skill");
    assert.equal(loaded?.error, false, loaded?.output);
    assert.match(loaded?.output ?? "", /Steps to monitor grafana/);
  } finally {
    await h.close();
  }
});

test("a skill loaded by its short name counts as used lately: the next turn lists it", async () => {
  const h = await ecosystem([
    { toolCalls: [{ id: "s1", name: "SearchTools", arguments: { query: "grafana dashboards" } }] },
    { toolCalls: [{ id: "k1", name: "Skill", arguments: { skill: "monitor-grafana" } }] },
    { text: ["Following the skill."] },
    { text: ["You are welcome."] },
  ]);
  try {
    await h.conversation.submit("Our charts look wrong since Tuesday");
    const loaded = h.of("tool_result").find((r) => r.name === "Skill");
    assert.equal(loaded?.error, false, loaded?.output);
    await h.conversation.submit("Thanks a lot");
    const listed = skillLines(body(h, 3)).some((l) => l.includes("monitor-grafana"));
    assert.equal(listed, true, skillLines(body(h, 3)).join("\n"));
  } finally {
    await h.close();
  }
});

test("the same conversation gets the same request, byte for byte", async () => {
  const h = await ecosystem([{ text: ["one"] }, { text: ["two"] }]);
  try {
    const prompt = "Please review the terraform modules and deploy them with docker";
    await h.conversation.submit(prompt);
    const again = await h.engine.open({ emit: () => {} });
    try {
      await again.submit(prompt);
    } finally {
      await again.close();
    }
    assert.equal(h.server.chatRequests.length, 2);
    assert.equal(
      JSON.stringify(h.server.chatRequests[1].body),
      JSON.stringify(h.server.chatRequests[0].body),
    );
    const skills = skillLines(body(h, 0));
    assert.ok(
      skills.some((l) => l.includes("terraform")),
      skills.join("\n"),
    );
  } finally {
    await h.close();
  }
});

test("a tiny budget keeps the agent's own tools and what a command's allowed-tools names", async () => {
  const h = await ecosystem([{ text: ["a"] }, { text: ["b"] }], {
    agents: {
      tiny: "---\ndescription: Tiny budget\nextensions_budget: 1\n---\nYou help.\n",
      picky:
        "---\ndescription: Weather only\nextensions_budget: 1\n" +
        "tools: [Read, Skill, WeatherNow]\n---\nYou help.\n",
    },
    agent: "picky",
  });
  try {
    await h.conversation.submit("What should I wear tomorrow?");
    assert.ok(toolNames(body(h, 0)).includes("WeatherNow"), "named by the agent's tools");
    const tiny = await h.engine.open({ agent: "tiny", emit: () => {} });
    try {
      await tiny.submit("/billing-tools:convert-money 5 GBP");
    } finally {
      await tiny.close();
    }
    const names = toolNames(body(h, 1));
    assert.ok(names.includes("CurrencyConvert"), `allowed-tools keeps it: ${names.join(", ")}`);
    assert.ok(!names.includes("WeatherNow") && !names.includes("Translate"), names.join(", "));
    assert.ok(names.includes("SearchTools"));
  } finally {
    await h.close();
  }
});

test("nothing changes when every extension fits: all listed, no search tool, no timeline line", async () => {
  const h = await startPluginHarness({
    plugins: { weather: TOOL_PLUGINS.weather },
    homeFiles: Object.fromEntries(
      Object.entries(claudePlugins()).filter(([rel]) =>
        /^plugins\/(kubernetes-review|terraform-review|billing-tools)\//.test(rel),
      ),
    ),
    server: { models: [{ id: "m", object: "model", max_model_len: 65536 }] },
    script: [{ text: ["ok"] }],
  });
  try {
    await h.conversation.submit("hello");
    const b = body(h, 0);
    assert.deepEqual(skillLines(b).length, 3);
    assert.ok(toolNames(b).includes("WeatherNow"));
    assert.ok(!toolNames(b).includes("SearchTools"));
    assert.ok(
      agentLines(b).some((l) => l.startsWith("- kubernetes-review:kubernetes-review-expert")),
    );
    assert.equal(offered(h).length, 0);
  } finally {
    await h.close();
  }
});

test("a provider's extensions_budget in providers.yaml applies to every agent that does not set one", async () => {
  const model = await startFakeOpenAI([{ text: ["a"] }, { text: ["b"] }], SMALL_MODEL);
  const { engine, close } = await startConfiguredEngine(
    "islet-budget-provider-",
    {
      "work/a.txt": "a\n",
      "home/config/providers.yaml":
        `default: { provider: small, model: m }\nproviders:\n  small: { type: openai-compatible, ` +
        `base_url: "${model.url}", extensions_budget: 2 }\n`,
      "home/config/agents/roomy.md": "---\ndescription: Roomy\nextensions_budget: 8\n---\nHi.\n",
      ...Object.fromEntries(Object.entries(claudePlugins()).map(([rel, t]) => [`home/${rel}`, t])),
    },
    model,
  );
  const budgets: number[] = [];
  const emit = (e: AgentEvent): void => {
    if (e.type === "extensions_offered") budgets.push(e.budget);
  };
  try {
    for (const agent of [undefined, "roomy"]) {
      const c = await engine.open({ agent, emit });
      await c.submit("review the terraform modules");
      await c.close();
    }
    assert.deepEqual(budgets, [Math.floor(4096 * 0.02), Math.floor(4096 * 0.08)]);
  } finally {
    await close();
  }
});
