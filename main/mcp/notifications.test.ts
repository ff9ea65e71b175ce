/**
 * What MCP servers tell us unasked, with a real server (testing/changing-server.ts, built on the
 * SDK's McpServer): a changed tool list reaches the registry while the engine runs, and log
 * messages land in the server's log.
 */
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { test } from "node:test";
import { Contributions } from "../contributions/contributions.ts";
import { newToolSessionState, type ToolContext } from "../tools/types.ts";
import { McpManager } from "../extensions/mcp/manager.ts";
import { changingStdio } from "./testing/servers.ts";
import { formatProblem } from "../host/problem.ts";

function ctx(): ToolContext {
  return {
    workdir: tmpdir(),
    signal: new AbortController().signal,
    state: newToolSessionState(),
    timeoutMs: 60_000,
  };
}

async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function setup() {
  const ext = new Contributions();
  const manager = new McpManager(ext.mcpServers, ext.registrar(), {
    warn: (p) => assert.fail(formatProblem(p)),
  });
  const spec = changingStdio();
  ext.registrar().mcpServer({ name: spec.name, source: spec.source, spec });
  return { ext, manager };
}

test("tools/list_changed: the server's new tool joins the registry and answers", async () => {
  const { ext, manager } = setup();
  const changes: string[][] = [];
  manager.onStatus((s) => changes.push(s.tools.map((t) => t.name)));
  try {
    await manager.startAll();
    assert.equal(ext.tools.get("mcp__changing__extra_1"), undefined);
    const add = ext.tools.get("mcp__changing__add_tool")!;
    assert.equal(await add.execute({}, ctx()), "added extra_1");
    await until("mcp__changing__extra_1 in the registry", () =>
      Boolean(ext.tools.get("mcp__changing__extra_1")),
    );
    assert.equal(await ext.tools.get("mcp__changing__extra_1")!.execute({}, ctx()), "extra 1 here");
    assert.ok(
      manager.status("changing").tools.some((t) => t.name === "mcp__changing__extra_1"),
      "listings show it",
    );
    assert.ok(
      changes.some((names) => names.includes("mcp__changing__extra_1")),
      "listeners told",
    );
  } finally {
    await manager.close();
  }
});

test("a server's log messages and stderr are in its log", async () => {
  const { ext, manager } = setup();
  try {
    await manager.startAll();
    const say = ext.tools.get("mcp__changing__say")!;
    assert.equal(await say.execute({ text: "disk almost full" }, ctx()), "said");
    await until("the log message", () =>
      manager.log("changing").some((l) => l.endsWith("warning talker: disk almost full")),
    );
    assert.ok(
      manager.log("changing").some((l) => l.endsWith("stderr: changing server ready")),
      manager.log("changing").join("\n"),
    );
  } finally {
    await manager.close();
  }
});
