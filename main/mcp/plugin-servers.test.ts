/** A Claude Code plugin's MCP servers: .mcp.json and the manifest's mcpServers, named as Claude Code names them. */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { Contributions } from "../contributions/contributions.ts";
import { newToolSessionState } from "../tools/types.ts";
import { McpManager } from "../extensions/mcp/manager.ts";
import { pluginMcpServers } from "./plugin-servers.ts";
import { EVERYTHING } from "./testing/servers.ts";
import { formatProblem } from "../host/problem.ts";

test("a plugin's .mcp.json and inline manifest servers, with CLAUDE_PLUGIN_ROOT, run as mcp__plugin_<p>_<s>__<tool>", async () => {
  const root = mkdtempSync(path.join(tmpdir(), "islet-mcp-plugin-"));
  mkdirSync(path.join(root, "server"));
  writeFileSync(path.join(root, "server", "index.js"), `import(${JSON.stringify(EVERYTHING)});\n`);
  writeFileSync(
    path.join(root, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        tools: {
          command: process.execPath,
          args: ["${CLAUDE_PLUGIN_ROOT}/server/index.js", "stdio"],
        },
      },
    }),
  );
  const manifest = { web: { type: "http", url: "http://127.0.0.1:9/mcp" }, bad: { args: [] } };
  const found = pluginMcpServers(root, "kit", { manifest, env: {} });
  assert.deepEqual(
    found.servers.map((s) => [s.name, s.source, s.transport]),
    [
      ["plugin_kit_tools", "plugin kit", "stdio"],
      ["plugin_kit_web", "plugin kit", "http"],
    ],
  );
  assert.equal(found.problems.length, 1);
  assert.match(formatProblem(found.problems[0]), /plugin\.json: field "mcpServers\.bad\.command"/);
  const outside = pluginMcpServers(root, "kit", { manifest: "./../x.json", env: {} });
  assert.match(formatProblem(outside.problems[0]), /leaves the plugin folder/);

  const ext = new Contributions();
  const manager = new McpManager(ext.mcpServers, ext.registrar(), { warn: () => {} });
  const scope = ext.registrar().scope();
  const spec = found.servers[0];
  scope.mcpServer({ name: spec.name, source: spec.source, spec });
  try {
    await manager.startAll();
    const echo = ext.tools.get("mcp__plugin_kit_tools__echo");
    assert.ok(echo, ext.tools.names().join(","));
    const out = await echo.execute(
      { message: "from a plugin" },
      {
        workdir: root,
        signal: new AbortController().signal,
        state: newToolSessionState(),
        timeoutMs: 30_000,
      },
    );
    assert.match(out, /Echo: from a plugin/);
    scope.dispose(); // the plugin unloaded
    assert.equal(ext.tools.get("mcp__plugin_kit_tools__echo"), undefined);
  } finally {
    await manager.close();
  }
});
