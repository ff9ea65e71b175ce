/**
 * An MCP server that dies at start (npx wanting `-y`, a missing module) fails at once with its
 * exit code and the last lines of its stderr, not with "Request timed out" after the time limit,
 * also when a process it started still holds its pipes open.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { McpServerSpec } from "./config.ts";
import { McpConnection } from "./connection.ts";

// Far above the failure's real time: passing shows it did not wait for the limit.
const LIMIT_MS = 60_000;

function server(script: string): McpServerSpec {
  return {
    name: "dies",
    source: "test",
    transport: "stdio",
    command: process.execPath,
    args: ["-e", script],
    env: {},
  };
}

async function startError(spec: McpServerSpec): Promise<{ message: string; ms: number }> {
  const conn = new McpConnection(spec, {
    onChange: () => {},
    backoff: { maxAttempts: 0 },
    connectTimeoutMs: LIMIT_MS,
  });
  const t0 = Date.now();
  try {
    await conn.ready();
  } catch (err) {
    return { message: (err as Error).message, ms: Date.now() - t0 };
  } finally {
    await conn.stop();
  }
  throw new Error("the server started");
}

test("a server that prints to stderr and exits 1 at start shows its stderr and exit code", async () => {
  const { message, ms } = await startError(
    server(
      `console.error("npm warn exec The following package was not found and will be installed: some-mcp@1.0.0");` +
        `console.error("npm error canceled"); process.exit(1);`,
    ),
  );
  assert.ok(ms < LIMIT_MS / 3, `failed after ${ms} ms`);
  assert.match(message, /exited with code 1 before answering/);
  assert.match(
    message,
    /stderr: npm warn exec The following package was not found and will be installed: some-mcp@1\.0\.0 \| npm error canceled/,
  );
  assert.doesNotMatch(message, /timed out/i);
});

test("a server that exits while a process it started keeps its pipes open fails at once too", async () => {
  // The child outlives the server by a few seconds, holding stdout and stderr.
  const { message, ms } = await startError(
    server(
      `require("node:child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 4000)"], { stdio: "inherit" });` +
        `console.error("Error: Cannot find module 'missing-mcp'"); process.exitCode = 2;`,
    ),
  );
  assert.ok(ms < LIMIT_MS / 3, `failed after ${ms} ms`);
  assert.match(
    message,
    /exited with code 2 before answering \(stderr: Error: Cannot find module 'missing-mcp'\)/,
  );
});

test("a server whose command is not installed fails for good at once: one line naming the command, no restarts", async () => {
  const states: string[] = [];
  const conn = new McpConnection(
    {
      name: "bun-server",
      source: "test",
      transport: "stdio",
      command: "islet-no-such-command-xyz",
      args: ["server.ts"],
      env: {},
    },
    {
      onChange: (c) => states.push(c.status),
      // Restarts would be allowed: a missing program is not something a restart mends.
      backoff: { maxAttempts: 5, baseMs: 10 },
      connectTimeoutMs: LIMIT_MS,
    },
  );
  const t0 = Date.now();
  try {
    await assert.rejects(
      conn.ready(),
      /command "islet-no-such-command-xyz" was not found: install it or put it on PATH/,
    );
    assert.ok(Date.now() - t0 < LIMIT_MS / 3);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(conn.status, "failed");
    assert.equal(conn.restarts, 0);
    assert.ok(!states.includes("restarting"), states.join(","));
  } finally {
    await conn.stop();
  }
});

test("a server whose working folder is missing says so, not that its command is missing", async () => {
  const conn = new McpConnection(
    {
      name: "nowhere",
      source: "test",
      transport: "stdio",
      command: process.execPath,
      args: ["-e", "process.exit(0)"],
      env: {},
      cwd: "/nonexistent/islet-mcp-folder",
    },
    { onChange: () => {}, backoff: { maxAttempts: 5, baseMs: 10 }, connectTimeoutMs: LIMIT_MS },
  );
  try {
    await assert.rejects(
      conn.ready(),
      /its working folder \/nonexistent\/islet-mcp-folder does not exist/,
    );
    assert.equal(conn.status, "failed");
  } finally {
    await conn.stop();
  }
});
