/** `mcp/*` against a real engine and a real MCP server (server-everything over stdio, from config/mcp/). */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EVERYTHING } from "../../mcp/testing/servers.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import type { McpServerItem } from "../schemas/mcp.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

describe("bridge: mcp/* on a real engine", () => {
  let dirs: TempDir;
  let host: BridgeHost;
  let client: RecordingClient;

  before(async () => {
    dirs = tempDir("islet-bridge-mcp-");
    dirs.write({
      "home/config/mcp/everything.yaml": `command: ${JSON.stringify(process.execPath)}\nargs: [${JSON.stringify(EVERYTHING)}, stdio]\n`,
      "work/.keep": "",
    });
    host = await openBridgeHost({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      host: {
        host: "browser",
        versions: { node: process.versions.node, electron: null, chrome: null },
      },
    });
    client = recordingClient(host.service);
  });

  after(async () => {
    await host.close();
    dirs.remove();
  });

  it("lists without starting; restart starts it with its tools; disable and enable; status events", async () => {
    const listed = (await client.call("mcp/list", undefined)) as { servers: McpServerItem[] };
    assert.deepEqual(
      listed.servers.map((s) => [s.name, s.status, s.transport, s.tools.length]),
      [["everything", "stopped", "stdio", 0]],
    );
    const started = (await client.call("mcp/restart", { name: "everything" })) as {
      server: McpServerItem;
    };
    assert.equal(started.server.status, "running");
    assert.ok(started.server.tools.some((t) => t.name === "mcp__everything__echo"));
    const statuses = () =>
      client.of("mcp/changed").map((p) => (p as { server: McpServerItem }).server.status);
    assert.ok(statuses().includes("starting") && statuses().includes("running"), statuses().join());

    const off = (await client.call("mcp/setEnabled", { name: "everything", enabled: false })) as {
      server: McpServerItem;
    };
    assert.equal(off.server.status, "disabled");
    assert.deepEqual(off.server.tools, []);
    assert.equal(statuses().at(-1), "disabled");
    const on = (await client.call("mcp/setEnabled", { name: "everything", enabled: true })) as {
      server: McpServerItem;
    };
    assert.equal(on.server.status, "running");
    // server-everything says on stderr that it starts; the log has it.
    const log = (await client.call("mcp/log", { name: "everything" })) as { lines: string[] };
    assert.ok(
      log.lines.some((l) => l.includes("stderr: Starting default (STDIO) server")),
      log.lines.join("\n"),
    );
    await assert.rejects(client.call("mcp/restart", { name: "nope" }), /unknown MCP server "nope"/);
  });
});
