/** Real MCP servers for tests and the benchmark: server-everything (stdio or streamable HTTP) and the crashing one. */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerSpec, StdioServer } from "../config.ts";

const require = createRequire(import.meta.url);

/** server-everything's entry (`node ENTRY stdio|streamableHttp`). */
export const EVERYTHING = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

export const CRASHING = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "crashing-server.ts",
);

export const CHANGING = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "changing-server.ts",
);

/** A server whose tool list changes on request and that sends log messages. */
export function changingStdio(name = "changing"): McpServerSpec {
  return {
    name,
    source: "test",
    transport: "stdio",
    command: process.execPath,
    args: [CHANGING],
    env: {},
  };
}

export function everythingStdio(name = "everything"): McpServerSpec & StdioServer {
  return {
    name,
    source: "test",
    transport: "stdio",
    command: process.execPath,
    args: [EVERYTHING, "stdio"],
    env: {},
  };
}

export function crashingStdio(startLog: string, name = "crashy"): McpServerSpec {
  return {
    name,
    source: "test",
    transport: "stdio",
    command: process.execPath,
    args: [CRASHING],
    env: { START_LOG: startLog },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * server-everything over streamable HTTP on a free loopback port (or `port`, to start it again
 * where it was); `url` is its /mcp endpoint.
 */
export async function startEverythingHttp(
  port?: number,
): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  port ??= await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      if (err.includes("listening")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited ${code}: ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill();
      await exited;
    },
  };
}

export const SCRIPTED = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "scripted-server.ts",
);

/** A server answering "<tag> ran <tool>" for each of `tools` (testing/scripted-server.ts). */
export function scriptedStdio(
  name: string,
  tools: { name: string; description: string; args?: Record<string, string> }[],
  opts: { tag?: string; rewrite?: boolean; source?: string } = {},
): McpServerSpec & StdioServer {
  return {
    name,
    source: opts.source ?? "test",
    transport: "stdio",
    command: process.execPath,
    args: [SCRIPTED],
    env: {
      SCRIPTED_TAG: opts.tag ?? name,
      SCRIPTED_TOOLS: JSON.stringify(tools),
      ...(opts.rewrite ? { SCRIPTED_REWRITE: "1" } : {}),
    },
  };
}
