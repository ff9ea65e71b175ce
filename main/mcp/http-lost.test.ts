/**
 * A streamable-HTTP server that goes away (server-everything, a real process on loopback, killed)
 * is noticed without any process exit to tell us: its status turns to "restarting" with the
 * reason, calls fail with one line naming the server, and once it listens again (a new process on
 * the same port) the backoff's next attempt reconnects and calls work again.
 */
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { test } from "node:test";
import { formatServers } from "../cli/mcp-command.ts";
import { Contributions } from "../contributions/contributions.ts";
import { newToolSessionState, type ToolContext } from "../tools/types.ts";
import { McpManager } from "../extensions/mcp/manager.ts";
import { startEverythingHttp } from "./testing/servers.ts";

function ctx(): ToolContext {
  return {
    workdir: tmpdir(),
    signal: new AbortController().signal,
    state: newToolSessionState(),
    timeoutMs: 60_000,
  };
}

async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test(
  "an HTTP server killed and started again: restarting, one-line errors, then running",
  { timeout: 240_000 },
  async () => {
    let http = await startEverythingHttp();
    const ext = new Contributions();
    const manager = new McpManager(ext.mcpServers, ext.registrar(), {
      warn: () => {},
      // Generous attempts: a loaded machine may take a while to start the server again.
      backoff: { baseMs: 100, maxMs: 500, maxAttempts: 1000 },
    });
    const seen: string[] = [];
    manager.onStatus((s) => seen.push(s.status));
    ext.registrar().mcpServer({
      name: "remote",
      source: "test",
      spec: { name: "remote", source: "test", transport: "http", url: http.url, headers: {} },
    });
    try {
      await manager.startAll();
      const echo = () => ext.tools.get("mcp__remote__echo")!.execute({ message: "hi" }, ctx());
      assert.match(await echo(), /Echo: hi/);

      await http.stop();
      await until("status restarting", () => manager.status("remote").status === "restarting");
      const down = manager.status("remote");
      assert.match(down.error ?? "", /connection lost|could not start/, down.error);
      assert.match(formatServers(manager.list()), /^remote {2}restarting {2}http/m);
      // While it is gone, a call fails with one line naming the server.
      const failure = await echo().then(
        () => assert.fail("a call to a server that is gone succeeded"),
        (err: Error) => err.message,
      );
      assert.match(failure, /^MCP server "remote": /);
      assert.doesNotMatch(failure, /\n/);
      assert.ok(
        manager.log("remote").some((l) => /connection lost/.test(l)),
        "the log says why",
      );

      http = await startEverythingHttp(http.port);
      await until("status running again", () => manager.status("remote").status === "running");
      assert.match(await echo(), /Echo: hi/);
      assert.ok(manager.status("remote").restarts >= 1);
      assert.ok(seen.includes("restarting") && seen.at(-1) === "running", seen.join(","));
    } finally {
      await manager.close();
      await http.stop();
    }
  },
);
