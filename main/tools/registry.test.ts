import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { defineTool } from "./define.ts";
import { builtinTools } from "./index.ts";
import { filterTools, matchesToolPattern, ToolRegistry } from "./registry.ts";
import type { Tool, ToolSource } from "./types.ts";

function tool(
  name: string,
  extra: { source?: ToolSource; override?: boolean; optIn?: boolean } = {},
): Tool {
  return defineTool({
    name,
    description: `${name} tool`,
    args: {},
    parallel: true,
    ...extra,
    execute: async () => name,
  });
}

test("builtins register without conflicts and give specs for the model", () => {
  const registry = new ToolRegistry();
  for (const t of builtinTools()) registry.register(t);
  assert.deepEqual(registry.names(), [
    "Read",
    "Write",
    "Patch",
    "Bash",
    "Glob",
    "Grep",
    "Ls",
    "TodoWrite",
    "Done",
  ]);
  const parallel = registry
    .list()
    .filter((t) => t.parallel)
    .map((t) => t.name);
  assert.deepEqual(parallel, ["Read", "Glob", "Grep", "Ls"]);
  const specs = registry.specs();
  assert.equal(specs.length, 9);
  for (const spec of specs) {
    assert.equal(spec.parameters.type, "object");
    assert.equal(spec.parameters.additionalProperties, false);
    assert.ok(spec.description.length > 20);
  }
});

test("a name conflict is an error unless the new tool says override", () => {
  const registry = new ToolRegistry();
  registry.register(tool("Read"));
  const other = registry.register(tool("Other"));
  assert.throws(() => registry.register(tool("Read", { source: "plugin" })), {
    message:
      'Tool "Read" (plugin) conflicts with the already registered builtin tool of the same name; rename it or set override: true to replace it',
  });
  const replacement = tool("Read", { source: "plugin", override: true });
  registry.register(replacement);
  assert.equal(registry.get("Read"), replacement);
  assert.deepEqual(registry.names(), ["Read", "Other"], "an override keeps the original position");
  other.dispose();
  other.dispose();
  assert.equal(registry.has("Other"), false);
  assert.equal(registry.get("Missing"), undefined);
});

test("overrides stack: disposing one gives back exactly what it covered", () => {
  const registry = new ToolRegistry();
  const builtin = tool("Read");
  registry.register(builtin);
  registry.register(tool("Write"));
  const a = tool("Read", { source: "plugin", override: true });
  const b = tool("Read", { source: "plugin", override: true });
  const aReg = registry.register(a);
  const bReg = registry.register(b);
  assert.equal(registry.get("Read"), b, "the last override serves");
  assert.equal(aReg.serving(), b);
  aReg.dispose();
  assert.equal(registry.get("Read"), b, "removing a covered override changes nothing visible");
  bReg.dispose();
  bReg.dispose();
  assert.equal(registry.get("Read"), builtin);
  assert.deepEqual(
    registry.list().map((t) => t.name),
    ["Read", "Write"],
  );
  assert.equal(registry.specs().length, 2);
});

test("a tool without override slips under an override of its name, and conflicts only with its kind", () => {
  const registry = new ToolRegistry();
  const over = tool("Fetch", { source: "plugin", override: true });
  const overReg = registry.register(over);
  const base = tool("Fetch", { source: "plugin" });
  registry.register(base);
  assert.equal(registry.get("Fetch"), over, "the override keeps serving");
  assert.throws(
    () => registry.register(tool("Fetch", { source: "mcp" })),
    /conflicts with the already registered plugin tool/,
  );
  overReg.dispose();
  assert.equal(registry.get("Fetch"), base);
});

test("wildcard patterns", () => {
  assert.equal(matchesToolPattern("Read", "Read"), true);
  assert.equal(matchesToolPattern("Read", "read"), false);
  assert.equal(matchesToolPattern("Read", "*"), true);
  assert.equal(matchesToolPattern("mcp__github__issue", "mcp__*"), true);
  assert.equal(matchesToolPattern("mcp__github__issue", "mcp__*__issue"), true);
  assert.equal(matchesToolPattern("mcp__github__pr", "mcp__*__issue"), false);
  assert.equal(matchesToolPattern("Todo.Write", "Todo.*"), true);
  assert.equal(matchesToolPattern("TodoXWrite", "Todo.Write"), false, "dots are literal");
});

test("filter: enabled patterns, then disabled patterns, opt-in tools only by exact name", () => {
  const tools = [
    tool("Read"),
    tool("Write"),
    tool("mcp__gh__issue"),
    tool("mcp__gh__pr"),
    tool("Secret", { optIn: true }),
  ];
  const names = (filter: Parameters<typeof filterTools>[1]) =>
    filterTools(tools, filter).map((t) => t.name);
  assert.deepEqual(names({}), ["Read", "Write", "mcp__gh__issue", "mcp__gh__pr"]);
  assert.deepEqual(names({ enabled: ["*"] }), ["Read", "Write", "mcp__gh__issue", "mcp__gh__pr"]);
  assert.deepEqual(names({ enabled: ["Read", "mcp__*"] }), [
    "Read",
    "mcp__gh__issue",
    "mcp__gh__pr",
  ]);
  assert.deepEqual(names({ enabled: ["mcp__*"], disabled: ["*__pr"] }), ["mcp__gh__issue"]);
  assert.deepEqual(names({ disabled: ["*"] }), []);
  assert.deepEqual(names({ enabled: ["*", "Secret"] }), [
    "Read",
    "Write",
    "mcp__gh__issue",
    "mcp__gh__pr",
    "Secret",
  ]);
  assert.deepEqual(names({ enabled: ["Secret"], disabled: ["Sec*"] }), []);
  const registry = new ToolRegistry();
  for (const t of tools) registry.register(t);
  assert.deepEqual(
    registry.specs({ enabled: ["Write"] }).map((s) => s.name),
    ["Write"],
  );
  assert.deepEqual(
    registry.filter({ enabled: ["R*"] }).map((t) => t.name),
    ["Read"],
  );
});

test("specs include usage and examples in the description", () => {
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: "Demo",
      description: "Does a thing.",
      usage: "Call it once.",
      examples: '{"n": 1}',
      args: { n: z.number() },
      parallel: false,
      execute: async () => "",
    }),
  );
  assert.equal(
    registry.specs()[0].description,
    'Does a thing.\n\nUsage: Call it once.\n\nExamples: {"n": 1}',
  );
});
