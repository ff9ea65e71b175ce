/**
 * The lean tools/call path against a real stdio server (testing/crashing-server.ts): a call past
 * its time limit and an aborted call both fail at once and tell the server to stop
 * (notifications/cancelled reaches its handler) and the server keeps serving; a JSON-RPC error
 * answer (from a hand-written server) is one line.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { Contributions } from "../contributions/contributions.ts";
import { newToolSessionState, type ToolContext } from "../tools/types.ts";
import { McpManager } from "../extensions/mcp/manager.ts";
import { crashingStdio } from "./testing/servers.ts";

function ctx(signal = new AbortController().signal, timeoutMs = 60_000): ToolContext {
  return { workdir: tmpdir(), signal, state: newToolSessionState(), timeoutMs };
}

async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test(
  "timeouts and aborts fail the call at once and cancel it on the server",
  { timeout: 120_000 },
  async () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), "islet-mcp-cancel-")), "starts.log");
    const cancelled = () =>
      existsSync(`${log}.cancelled`)
        ? readFileSync(`${log}.cancelled`, "utf8").trim().split("\n")
        : [];
    const ext = new Contributions();
    const manager = new McpManager(ext.mcpServers, ext.registrar(), { warn: () => {} });
    const spec = crashingStdio(log, "srv");
    ext.registrar().mcpServer({ name: spec.name, source: spec.source, spec });
    try {
      await manager.startAll();
      const slow = ext.tools.get("mcp__srv__slow")!;

      // A generous limit of its own, far below the tool's minute.
      const started = Date.now();
      await assert.rejects(slow.execute({}, ctx(undefined, 1_500)), (err: Error) => {
        assert.equal(err.message, 'MCP server "srv": slow gave no answer within 1500 ms');
        return true;
      });
      assert.ok(Date.now() - started < 30_000, "it did not wait for the server");
      await until("the server's handler to see the cancel", () => cancelled().length === 1);

      const abort = new AbortController();
      const call = slow.execute({}, ctx(abort.signal));
      setTimeout(() => abort.abort(new Error("stopped by the user")), 200);
      await assert.rejects(call, /^ToolError: MCP server "srv": stopped by the user$/);
      await until("the second cancel", () => cancelled().length === 2);
      assert.notEqual(cancelled()[0], cancelled()[1], "each call its own id");

      assert.match(await ext.tools.get("mcp__srv__ping")!.execute({}, ctx()), /^pong \d+$/);
      assert.equal(manager.status("srv").restarts, 0, "no restart: the server never went away");
    } finally {
      await manager.close();
    }
  },
);

/** Answers initialize and tools/list like any server; every tools/call with a multi-line error. */
const ERRING_SERVER = `
const rl = require("node:readline").createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
rl.on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === "initialize")
    send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "erring", version: "1" } } });
  else if (m.method === "tools/list")
    send({ id: m.id, result: { tools: [{ name: "query", inputSchema: { type: "object" } }] } });
  else send({ id: m.id, error: { code: -32603, message: "database down\\n    at query (db.js:1:1)" } });
});
`;

test("a JSON-RPC error answer is one line naming the server", async () => {
  const ext = new Contributions();
  const manager = new McpManager(ext.mcpServers, ext.registrar(), { warn: () => {} });
  ext.registrar().mcpServer({
    name: "erring",
    source: "test",
    spec: {
      name: "erring",
      source: "test",
      transport: "stdio",
      command: process.execPath,
      args: ["-e", ERRING_SERVER],
      env: {},
    },
  });
  try {
    await manager.startAll();
    assert.equal(manager.status("erring").status, "running", manager.status("erring").error);
    await assert.rejects(ext.tools.get("mcp__erring__query")!.execute({}, ctx()), (err: Error) => {
      assert.equal(err.message, 'MCP server "erring": database down (MCP error -32603)');
      return true;
    });
    assert.equal(manager.status("erring").status, "running", "an error answer is not a crash");
  } finally {
    await manager.close();
  }
});
