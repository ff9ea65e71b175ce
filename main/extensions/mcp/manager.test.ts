/**
 * Real MCP servers through the manager: server-everything over stdio and over streamable HTTP,
 * tools in the registry as mcp__server__tool, a crashing server restarted with backoff, and
 * servers stopped when their contribution goes away.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { Contributions } from "../../contributions/contributions.ts";
import { newToolSessionState, type ToolContext } from "../../tools/types.ts";
import type { McpServerSpec } from "../../mcp/config.ts";
import { McpDisabledStore } from "../../mcp/disabled-store.ts";
import { McpManager } from "./manager.ts";
import { crashingStdio, everythingStdio, startEverythingHttp } from "../../mcp/testing/servers.ts";
import { formatProblem } from "../../host/problem.ts";

function ctx(): ToolContext {
  return {
    workdir: tmpdir(),
    signal: new AbortController().signal,
    state: newToolSessionState(),
    timeoutMs: 60_000,
  };
}

function setup(specs: McpServerSpec[], backoff = { baseMs: 50, maxMs: 1000 }) {
  const ext = new Contributions();
  const warnings: string[] = [];
  const manager = new McpManager(ext.mcpServers, ext.registrar(), {
    warn: (p) => warnings.push(formatProblem(p)),
    backoff,
  });
  const source = ext.registrar();
  for (const spec of specs) source.mcpServer({ name: spec.name, source: spec.source, spec });
  return { ext, manager, source, warnings };
}

test("server-everything over stdio: lazy start, tools named mcp__everything__*, a call", async () => {
  const { ext, manager } = setup([everythingStdio()]);
  try {
    assert.equal(manager.status("everything").status, "stopped");
    assert.equal(ext.tools.get("mcp__everything__echo"), undefined, "nothing before first need");
    await manager.startAll();
    const status = manager.status("everything");
    assert.equal(status.status, "running");
    assert.ok(
      status.tools.some((t) => t.name === "mcp__everything__get-sum"),
      JSON.stringify(status),
    );
    const echo = ext.tools.get("mcp__everything__echo")!;
    assert.equal(echo.source, "mcp");
    assert.deepEqual(echo.parameters.required, ["message"]);
    assert.equal(echo.validate({}).ok, false);
    assert.match(await echo.execute({ message: "hi there" }, ctx()), /Echo: hi there/);
    const sum = ext.tools.get("mcp__everything__get-sum")!;
    assert.match(await sum.execute({ a: 2, b: 3 }, ctx()), /5/);
  } finally {
    await manager.close();
  }
  assert.equal(ext.tools.get("mcp__everything__echo"), undefined, "tools leave with the servers");
});

test("server-everything over streamable HTTP", async () => {
  const http = await startEverythingHttp();
  const { ext, manager } = setup([
    { name: "remote", source: "test", transport: "http", url: http.url, headers: {} },
  ]);
  try {
    await manager.startAll();
    assert.equal(manager.status("remote").status, "running", manager.status("remote").error);
    const echo = ext.tools.get("mcp__remote__echo")!;
    assert.match(await echo.execute({ message: "over http" }, ctx()), /Echo: over http/);
  } finally {
    await manager.close();
    await http.stop();
  }
});

test("a server that crashes on a call is restarted with backoff and serves again", async () => {
  const log = path.join(mkdtempSync(path.join(tmpdir(), "islet-mcp-crash-")), "starts.log");
  const { ext, manager } = setup([crashingStdio(log)], { baseMs: 200, maxMs: 2000 });
  const seen: string[] = [];
  manager.onStatus((s) => seen.push(s.status));
  try {
    await manager.startAll();
    const ping = ext.tools.get("mcp__crashy__ping")!;
    const first = await ping.execute({}, ctx());
    await assert.rejects(ext.tools.get("mcp__crashy__die")!.execute({}, ctx()), /crashy/);
    // The next call waits for the restart (after the backoff) instead of failing.
    const second = await ping.execute({}, ctx());
    assert.match(first, /^pong \d+$/);
    assert.match(second, /^pong \d+$/);
    assert.notEqual(first, second, "a new process answers");
    assert.equal(readFileSync(log, "utf8").trim().split("\n").length, 2);
    const status = manager.status("crashy");
    assert.equal(status.status, "running");
    assert.equal(status.restarts, 1);
    assert.ok(seen.includes("restarting"), seen.join(","));
    assert.ok(ext.tools.get("mcp__crashy__ping"), "its tools stayed registered");
  } finally {
    await manager.close();
  }
});

test("a server that cannot start gives up after its attempts, as failed, with the reason", async () => {
  const { manager } = setup(
    [
      {
        name: "nope",
        source: "x.json",
        transport: "stdio",
        command: process.execPath,
        args: ["-e", "console.error('boom'); process.exit(1)"],
        env: {},
      },
    ],
    { baseMs: 10, maxMs: 20 },
  );
  try {
    await manager.startAll();
    for (let i = 0; i < 200 && manager.status("nope").status !== "failed"; i++)
      await new Promise((r) => setTimeout(r, 50));
    const status = manager.status("nope");
    assert.equal(status.status, "failed");
    assert.match(status.error ?? "", /boom/);
    assert.match(status.error ?? "", /gave up after 5 restarts/);
  } finally {
    await manager.close();
  }
});

test("disable stops a server and takes its tools away; enable and restart bring them back", async () => {
  const { ext, manager, source } = setup([everythingStdio("ev")]);
  try {
    await manager.startAll();
    assert.ok(ext.tools.get("mcp__ev__echo"));
    assert.equal((await manager.disable("ev")).status, "disabled");
    assert.equal(ext.tools.get("mcp__ev__echo"), undefined);
    await manager.startAll();
    assert.equal(
      manager.status("ev").status,
      "disabled",
      "startAll leaves a disabled server alone",
    );
    assert.equal((await manager.enable("ev")).status, "running");
    assert.ok(ext.tools.get("mcp__ev__echo"));
    assert.equal((await manager.restart("ev")).status, "running");
    // The contribution goes away (its plugin unloaded): the server stops and is no longer listed.
    source.dispose();
    assert.deepEqual(manager.list(), []);
    assert.equal(ext.tools.get("mcp__ev__echo"), undefined);
  } finally {
    await manager.close();
  }
});

test("a disabled server stays disabled in the next engine of the same workspace", async () => {
  const home = mkdtempSync(path.join(tmpdir(), "islet-mcp-state-"));
  const store = () => new McpDisabledStore(home, "/work/a", (p) => assert.fail(formatProblem(p)));
  const open = () => {
    const ext = new Contributions();
    const manager = new McpManager(ext.mcpServers, ext.registrar(), {
      warn: (p) => assert.fail(formatProblem(p)),
      disabledStore: store(),
    });
    const spec = everythingStdio("ev");
    ext.registrar().mcpServer({ name: spec.name, source: spec.source, spec });
    return manager;
  };
  const first = open();
  await first.disable("ev");
  await first.close();
  const second = open();
  try {
    assert.equal(second.status("ev").status, "disabled");
    await second.startAll();
    assert.equal(second.status("ev").status, "disabled", "not started");
    assert.deepEqual(
      new McpDisabledStore(home, "/work/other", () => {}).disabled(),
      new Set(),
      "per workspace",
    );
    assert.equal((await second.enable("ev")).status, "running");
    assert.deepEqual(store().disabled(), new Set());
  } finally {
    await second.close();
  }
});

test("a server still starting when the manager closes is stopped without a warning", async () => {
  // Starts, then never answers `initialize`: as an offline `npx` does for its first half minute.
  const hung: McpServerSpec = {
    name: "hung",
    source: "test",
    transport: "stdio",
    command: process.execPath,
    args: ["-e", "setInterval(() => {}, 1000)"],
    env: {},
  };
  const missing: McpServerSpec = { ...hung, name: "missing", command: "islet-no-such-command" };
  const { manager, warnings } = setup([hung, missing]);
  const still = await manager.startAllWithin(1000);
  assert.deepEqual(still, ["hung"]);
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0]!, /MCP server "missing" is not running: .*islet-no-such-command/);
  await manager.close();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(warnings.length, 1, `closing is not a failure to start: ${warnings.join("\n")}`);
});
