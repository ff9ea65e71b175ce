import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { registryOf, handler } from "../turn/hooks/testing.ts";
import { DEFAULT_AGENT } from "../agents/definition.ts";
import type { SlashCommand } from "../commands/types.ts";
import { defineTool } from "../tools/define.ts";
import { builtinTools } from "../tools/index.ts";
import type { Tool } from "../tools/types.ts";
import { Contributions } from "./contributions.ts";
import { HOOK_SOURCE_ORDER } from "./hook-sources.ts";

function readOverride(label: string): Tool {
  return defineTool({
    name: "Read",
    description: label,
    args: { path: z.string() },
    parallel: true,
    source: "plugin",
    override: true,
    execute: async () => label,
  });
}

const command = (name: string): SlashCommand => ({
  name,
  description: name,
  source: "plugin",
  run: async () => ({ output: name }),
});

function engineLike(): Contributions {
  const c = new Contributions();
  for (const tool of builtinTools()) c.tools.register(tool);
  c.agents.addLoaded(new Map([[DEFAULT_AGENT.name, DEFAULT_AGENT]]));
  return c;
}

test("disposing a source's registrar releases everything it contributed, and only that", () => {
  const c = engineLike();
  const other = c.registrar();
  other.promptFragment({ source: "other", text: "stay" });
  const source = c.registrar();
  source.tool(readOverride("mine"));
  source.command(command("mine"));
  source.hooks(
    registryOf(handler("mine", "beforeChat", () => undefined)),
    HOOK_SOURCE_ORDER.codePlugins,
  );
  source.promptFragment({ source: "mine", text: "be brief" });
  source.agent({ ...DEFAULT_AGENT, name: "helper", description: "from a plugin" });
  source.mcpServer({ name: "github", source: "mine" });
  assert.equal(c.tools.get("Read")?.description, "mine");
  assert.deepEqual(c.promptFragments.texts(), ["stay", "be brief"]);
  assert.deepEqual([...c.agents.keys()], ["default", "helper"]);
  assert.deepEqual(c.mcpServers.names(), ["github"]);
  assert.equal(c.hooks.handlers("beforeChat").length, 1);

  source.dispose();
  source.dispose();
  assert.equal(c.tools.get("Read")?.source, "builtin");
  assert.equal(c.commands.get("mine"), undefined);
  assert.equal(c.hooks.handlers("beforeChat").length, 0);
  assert.deepEqual(c.promptFragments.texts(), ["stay"]);
  assert.deepEqual([...c.agents.keys()], ["default"]);
  assert.deepEqual(c.mcpServers.names(), []);
  assert.throws(() => source.command(command("late")), /after its source was unloaded/);
});

test("a scope (one plugin) releases its share; its parent keeps the rest", () => {
  const c = engineLike();
  const source = c.registrar();
  source.command(command("plugins"));
  const a = source.scope();
  const b = source.scope();
  a.tool(readOverride("a"));
  b.tool(readOverride("b"));
  a.command(command("hello"));
  assert.equal(c.tools.get("Read")?.description, "b");
  b.dispose();
  assert.equal(c.tools.get("Read")?.description, "a");
  const fragment = a.promptFragment({ source: "a", text: "x" });
  fragment.dispose();
  assert.deepEqual(c.promptFragments.texts(), []);
  source.dispose();
  assert.equal(c.tools.get("Read")?.source, "builtin");
  assert.equal(c.commands.get("hello"), undefined, "children go with their parent");
  assert.equal(c.commands.get("plugins"), undefined);
  assert.throws(() => a.scope(), /after its source was unloaded/);
});

test("a tool conflict is thrown to the contributor and leaves nothing behind", () => {
  const c = engineLike();
  const source = c.registrar();
  const clash = defineTool({
    name: "Read",
    description: "clash",
    args: {},
    parallel: true,
    source: "plugin",
    execute: async () => "",
  });
  assert.throws(
    () => source.tool(clash),
    /"Read" \(plugin\) conflicts with the already registered builtin tool/,
  );
  source.dispose();
  assert.equal(c.tools.get("Read")?.source, "builtin");
});

test("agents from files win over contributed ones, which win over the built-in default", () => {
  const c = engineLike();
  const fromFile = { ...DEFAULT_AGENT, name: "reviewer", description: "file" };
  c.agents.add(fromFile, "config");
  const source = c.registrar();
  source.agent({ ...DEFAULT_AGENT, name: "reviewer", description: "plugin" });
  const def = source.agent({ ...DEFAULT_AGENT, description: "plugin default" });
  assert.equal(c.agents.get("reviewer"), fromFile);
  assert.equal(c.agents.get("default")?.description, "plugin default");
  def.dispose();
  assert.equal(c.agents.get("default"), DEFAULT_AGENT);
  assert.equal(c.agents.size, 2);
  assert.deepEqual(
    [...c.agents].map(([name]) => name),
    ["default", "reviewer"],
  );
});
