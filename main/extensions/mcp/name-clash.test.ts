/**
 * Attacks on MCP tool names, with real SDK servers over stdio (testing/scripted-server.ts): two
 * servers whose Claude Code names collide are refused on both sides, whichever starts first, and
 * two plugins whose `plugin_<plugin>_<server>` names coincide are both refused.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { Contributions } from "../../contributions/contributions.ts";
import { formatProblem } from "../../host/problem.ts";
import type { McpServerSpec } from "../../mcp/config.ts";
import { pluginMcpServers } from "../../mcp/plugin-servers.ts";
import { SCRIPTED, scriptedStdio } from "../../mcp/testing/servers.ts";
import { newToolSessionState, type ToolContext } from "../../tools/types.ts";
import { McpManager } from "./manager.ts";

function ctx(): ToolContext {
  return {
    workdir: tmpdir(),
    signal: new AbortController().signal,
    state: newToolSessionState(),
    timeoutMs: 60_000,
  };
}

function setup(specs: McpServerSpec[]) {
  const ext = new Contributions();
  const warnings: string[] = [];
  const manager = new McpManager(ext.mcpServers, ext.registrar(), {
    warn: (p) => warnings.push(formatProblem(p)),
  });
  const source = ext.registrar();
  for (const spec of specs) source.mcpServer({ name: spec.name, source: spec.source, spec });
  return { ext, manager, warnings };
}

const tool = (name: string) => ({ name, description: `the ${name} tool` });
// Server "a"'s tool "b__c" and server "a__b"'s tool "c" are both mcp__a__b__c.
const serverA = scriptedStdio("a", [tool("b__c"), tool("ping")]);
const serverAB = scriptedStdio("a__b", [tool("c"), tool("pong")]);

for (const order of [
  ["a", "a__b"],
  ["a__b", "a"],
]) {
  test(`mcp__a__b__c from servers "a" and "a__b": refused for both when ${order[0]} starts first`, async () => {
    const { ext, manager, warnings } = setup([serverA, serverAB]);
    try {
      // One server at a time, in this order (enable starts it and waits).
      await manager.enable(order[0]);
      if (order[0] === "a")
        assert.equal(ext.tools.get("mcp__a__b__c"), undefined, "a's b__c lies in a__b's names");
      await manager.enable(order[1]);
      assert.equal(ext.tools.get("mcp__a__b__c"), undefined, "the shared name serves nobody");
      // The rest of both servers still serves, each its own.
      assert.equal(await ext.tools.get("mcp__a__ping")!.execute({}, ctx()), "a ran ping");
      assert.equal(await ext.tools.get("mcp__a__b__pong")!.execute({}, ctx()), "a__b ran pong");
      const lines = (server: string, name: string) =>
        warnings.filter((w) => w.includes(`MCP server "${server}" (test): tool "${name}" refused`));
      assert.equal(lines("a", "b__c").length, 1, warnings.join("\n"));
      assert.equal(lines("a__b", "c").length, 1, warnings.join("\n"));
      assert.equal(warnings.length, 2, warnings.join("\n"));
      assert.deepEqual(
        manager
          .list()
          .flatMap((s) => s.tools.map((t) => t.name))
          .sort(),
        ["mcp__a__b__pong", "mcp__a__ping"],
      );
    } finally {
      await manager.close();
    }
  });
}

test('servers "a" and "a_" (mcp__a___x): the shared name is refused for both', async () => {
  const { ext, manager, warnings } = setup([
    scriptedStdio("a_", [tool("x")]),
    scriptedStdio("a", [tool("_x"), tool("y")]),
  ]);
  try {
    await manager.startAll();
    assert.equal(ext.tools.get("mcp__a___x"), undefined);
    assert.ok(ext.tools.get("mcp__a__y"));
    assert.equal(warnings.length, 2, warnings.join("\n"));
  } finally {
    await manager.close();
  }
});

/** A Claude Code plugin folder whose .mcp.json declares one scripted server. */
function pluginFolder(server: string, tag: string): string {
  const root = mkdtempSync(path.join(tmpdir(), "islet-mcp-clash-"));
  const env = { SCRIPTED_TAG: tag, SCRIPTED_TOOLS: JSON.stringify([tool("t")]) };
  writeFileSync(
    path.join(root, ".mcp.json"),
    JSON.stringify({
      mcpServers: { [server]: { command: process.execPath, args: [SCRIPTED], env } },
    }),
  );
  return root;
}

for (const order of [
  ["foo", "foo_bar"],
  ["foo_bar", "foo"],
]) {
  test(`plugin foo's server bar_baz and plugin foo_bar's server baz: both refused, ${order[0]} loaded first`, async () => {
    const plugins: Record<string, McpServerSpec> = {
      foo: pluginMcpServers(pluginFolder("bar_baz", "foo"), "foo", { env: {} }).servers[0],
      foo_bar: pluginMcpServers(pluginFolder("baz", "foo_bar"), "foo_bar", { env: {} }).servers[0],
    };
    assert.equal(plugins.foo.name, "plugin_foo_bar_baz");
    assert.equal(plugins.foo_bar.name, "plugin_foo_bar_baz");
    const { ext, manager, warnings } = setup(order.map((p) => plugins[p]));
    try {
      await manager.startAll();
      assert.equal(ext.tools.get("mcp__plugin_foo_bar_baz__t"), undefined, "neither one serves");
      const status = manager.list().find((s) => s.name === "plugin_foo_bar_baz")!;
      assert.equal(status.status, "failed");
      assert.match(status.error ?? "", /refused/);
      assert.equal(warnings.length, 2, warnings.join("\n"));
      assert.ok(
        warnings.some((w) =>
          /plugin foo's server "bar_baz", refused: .*plugin foo_bar's server "baz"/.test(w),
        ),
      );
      assert.ok(
        warnings.some((w) =>
          /plugin foo_bar's server "baz", refused: .*plugin foo's server "bar_baz"/.test(w),
        ),
      );
    } finally {
      await manager.close();
    }
  });
}

test('servers "a.b" and "a_b" give the same tool names: both refused whole', async () => {
  const { ext, manager, warnings } = setup([
    scriptedStdio("a.b", [tool("t")]),
    scriptedStdio("a_b", [tool("t")]),
  ]);
  try {
    await manager.startAll();
    assert.equal(ext.tools.get("mcp__a_b__t"), undefined);
    assert.deepEqual(
      manager.list().map((s) => [s.name, s.status]),
      [
        ["a.b", "failed"],
        ["a_b", "failed"],
      ],
    );
    assert.equal(warnings.length, 2, warnings.join("\n"));
  } finally {
    await manager.close();
  }
});

test('one server\'s tools "x.y" and "x_y" (both mcp__dup__x_y): both refused', async () => {
  const { ext, manager, warnings } = setup([
    scriptedStdio("dup", [tool("x.y"), tool("x_y"), tool("z")]),
  ]);
  try {
    await manager.startAll();
    assert.equal(ext.tools.get("mcp__dup__x_y"), undefined);
    assert.ok(ext.tools.get("mcp__dup__z"));
    assert.deepEqual(warnings, [
      'MCP server "dup" (test): tool "x.y" refused: its tool "x_y" has the same name mcp__dup__x_y once cleaned',
      'MCP server "dup" (test): tool "x_y" refused: its tool "x.y" has the same name mcp__dup__x_y once cleaned',
    ]);
  } finally {
    await manager.close();
  }
});
