/**
 * The prompt budget against the generated 300-plugin ecosystem (main/extensions/testing/): Claude
 * Code marketplaces' plugins with commands, skills, agents, hooks and MCP servers, and code
 * plugins. On a 4k-window model the first request fits, the skill the prompt is about is listed,
 * and the extensions take no more than their 10%: the whole request against the same one with no
 * plugins, so listings' headings, the on-demand plugins' list and SearchTools count too.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createEngine } from "./bootstrap.ts";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { YES_FOR_THIS_RUN } from "../host/questions.ts";
import type { AgentEvent } from "../core/events.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { estimateText, estimateTools } from "../turn/tokens.ts";
import { writeEcosystem } from "../extensions/testing/ecosystem.ts";

interface Body {
  messages: { role: string; content: string }[];
  tools: { function: { name: string; description: string; parameters: never } }[];
}

const FIXED = new Set(
  "Read Write Patch Bash Glob Grep Ls TodoWrite Done Skill Task SearchTools activate_plugin".split(
    " ",
  ),
);

/** The tokens of a request as the budget estimates them. */
function requestTokens(body: Body): number {
  return (
    estimateTools(body.tools.map((t) => t.function)) +
    body.messages.reduce((n, m) => n + estimateText(m.content) + 4, 0)
  );
}

/** The first request of a turn with `prompt` on an engine whose global home is `home`. */
async function firstRequest(
  home: string,
  workdir: string,
  prompt: string,
  emit: (e: AgentEvent) => void = () => {},
): Promise<Body> {
  const model = await startFakeOpenAI([{ text: ["On it."] }], {
    models: [{ id: "m", object: "model", max_model_len: 4096 }],
  });
  const engine = await createEngine({
    home,
    workdir,
    env: {},
    plugins: {},
    questions: YES_FOR_THIS_RUN,
    flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
    warn: () => {},
  });
  try {
    const conversation = await engine.open({ emit });
    await conversation.submit(prompt);
    await conversation.close();
    return model.chatRequests[0].body as Body;
  } finally {
    await engine.close();
    await model.close();
  }
}

test("300 generated plugins on a 4k-window model: the request fits and the prompt's skill is listed", async () => {
  const dirs = tempDir("islet-budget-ecosystem-");
  dirs.write({ "work/a.txt": "a\n", "bare/.keep": "" });
  const eco = writeEcosystem(dirs.path("home"), { plugins: 300, seed: 7 });
  const events: AgentEvent[] = [];
  try {
    const body = await firstRequest(
      dirs.path("home"),
      dirs.path("work"),
      eco.knownSkill.prompt,
      (e) => events.push(e),
    );
    const system = body.messages.find((m) => m.role === "system")?.content ?? "";
    const request = requestTokens(body);
    assert.ok(request <= 4096, `the request fits the window: ~${request} tokens`);
    // The same request from an engine with no plugins at all: the difference is what they cost.
    const bare = requestTokens(
      await firstRequest(dirs.path("bare"), dirs.path("work"), eco.knownSkill.prompt),
    );
    assert.ok(
      request - bare <= 409,
      `the extensions take ~${request - bare} tokens of the window's 10% (409) in all`,
    );

    const skills = (/<skills>\n([\s\S]*?)<\/skills>/.exec(system)?.[1] ?? "")
      .split("\n")
      .filter((l) => l.startsWith("- "));
    const full = `${eco.knownSkill.plugin}:${eco.knownSkill.name}`;
    assert.ok(
      skills.some((l) => l.startsWith(`- ${full}:`)),
      `"${eco.knownSkill.prompt}" lists ${full}; listed:\n${skills.join("\n")}`,
    );
    const task = body.tools.find((t) => t.function.name === "Task")?.function.description ?? "";
    const agents = task.split("\n").filter((l) => l.startsWith("- "));
    const extensionTools = body.tools.filter((t) => !FIXED.has(t.function.name));
    const share =
      estimateText([...skills, ...agents].map((l) => `${l}\n`).join("")) +
      estimateTools(extensionTools.map((t) => t.function));
    assert.ok(share <= 409, `extensions take ~${share} tokens of 409`);

    // The on-demand plugins are listed only as chosen; activate_plugin comes with a listed one.
    const pluginLines = system.split("\n").filter((l) => / \((inactive|active)\)/.test(l));
    assert.equal(
      body.tools.some((t) => t.function.name === "activate_plugin"),
      pluginLines.length > 0,
      pluginLines.join("\n"),
    );
    const offered = events.filter((e) => e.type === "extensions_offered");
    assert.equal(offered.length, 1);
    assert.ok(offered[0].total >= eco.skills + eco.agents, JSON.stringify(offered[0]));
    assert.ok(body.tools.some((t) => t.function.name === "SearchTools"));
  } finally {
    dirs.remove();
  }
});
