/**
 * `islet run` waits for MCP servers before its first request, but not again for one that was
 * still starting when the last run stopped waiting (an offline `npx` server): it starts in the
 * background instead, and once it has started it is waited for again. Real stdio servers; the
 * memory is a file in the global home that holds no part of a server's definition.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { Contributions } from "../../contributions/contributions.ts";
import type { McpServerSpec } from "../../mcp/config.ts";
import { McpSlowStarts } from "../../mcp/slow-starts.ts";
import { SCRIPTED, scriptedStdio } from "../../mcp/testing/servers.ts";
import { McpManager } from "./manager.ts";

const home = mkdtempSync(path.join(tmpdir(), "islet-mcp-slow-"));
const flag = path.join(home, "network-is-back");

/** Hangs before `initialize` (as an offline npx does) until the flag file exists. */
const slowpoke: McpServerSpec = {
  name: "slowpoke",
  source: "test",
  transport: "stdio",
  command: process.execPath,
  args: [
    "-e",
    "if (!require('fs').existsSync(process.env.FLAG)) setInterval(() => {}, 1000); else import(process.env.SCRIPT);",
  ],
  env: {
    FLAG: flag,
    SCRIPT: SCRIPTED,
    SCRIPTED_TAG: "slowpoke",
    SCRIPTED_TOOLS: JSON.stringify([{ name: "poke", description: "Pokes" }]),
    API_TOKEN: "s3cret-token",
  },
};
const quick = scriptedStdio("quick", [{ name: "ping", description: "Pings" }]);
/** Cannot start at all: said once per run, however the wait goes. */
const broken: McpServerSpec = {
  name: "broken",
  source: "test",
  transport: "stdio",
  command: "islet-no-such-command",
  args: [],
  env: {},
};

async function run(waitMs: number) {
  const ext = new Contributions();
  const warnings: string[] = [];
  const manager = new McpManager(ext.mcpServers, ext.registrar(), {
    warn: (p) => warnings.push(p.title),
    slowStarts: new McpSlowStarts(home),
  });
  const source = ext.registrar();
  for (const spec of [slowpoke, quick, broken])
    source.mcpServer({ name: spec.name, source: "test", spec });
  const started = performance.now();
  const still = await manager.startAllWithin(waitMs);
  const brokenLines = warnings.filter((w) => w.startsWith('MCP server "broken" is not running'));
  return { manager, still, ms: performance.now() - started, brokenLines };
}

test("a server still starting when the wait ended is not waited for next time, until it has started once", async (t) => {
  // However it ends, no server is left running (the test file would never end).
  const managers: McpManager[] = [];
  t.after(async () => {
    await Promise.all(managers.map((m) => m.close()));
    rmSync(home, { recursive: true, force: true });
  });
  const first = await run(1500);
  managers.push(first.manager);
  assert.deepEqual(first.still, ["slowpoke"]);
  assert.equal(first.brokenLines.length, 1, first.brokenLines.join("\n"));
  assert.ok(first.ms >= 1400, `waited ${first.ms} ms`);
  assert.equal(first.manager.status("quick").status, "running");
  await first.manager.close();
  const remembered = readFileSync(path.join(home, "cache", "mcp-slow-starts.json"), "utf8");
  assert.equal(Object.keys(JSON.parse(remembered) as object).length, 1);
  for (const secret of ["slowpoke", "s3cret-token", "setInterval"])
    assert.ok(!remembered.includes(secret), `${secret} is not written: ${remembered}`);

  // The network is back, but this run does not know it yet: no wait, it starts in the background.
  writeFileSync(flag, "");
  const second = await run(20_000);
  managers.push(second.manager);
  assert.ok(second.ms < 10_000, `did not wait the whole time: ${second.ms} ms`);
  // The servers waited for apart from the rest: a failure is still said once.
  assert.equal(second.brokenLines.length, 1, second.brokenLines.join("\n"));
  assert.equal(second.manager.status("quick").status, "running", "the others are waited for");
  const deadline = Date.now() + 30_000;
  while (second.manager.status("slowpoke").status !== "running" && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(second.manager.status("slowpoke").status, "running");
  await second.manager.close();

  // It started: the next run waits for it again.
  const third = await run(20_000);
  managers.push(third.manager);
  assert.deepEqual(third.still, []);
  assert.equal(third.manager.status("slowpoke").status, "running");
  await third.manager.close();
});
