/**
 * MCP tool call overhead (goal ≤ 1.2×): an MCP tool called as the engine calls it (the registered
 * `mcp__everything__echo` Tool: argument check, the SDK client over stdio, the result turned into
 * text) against a direct JSON-RPC round trip (one `tools/call` line written to the same server's
 * stdin, its answer line read back and parsed). Same server program, same echo call. The machine
 * is shared and its load drifts, so each round times one batch of each path back to back (which
 * goes first alternates) and the ratio is the median of the rounds' ratios of batch medians.
 * Run alone: node --no-node-snapshot bench/mcp-bench.ts
 */
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import { Contributions } from "../main/contributions/contributions.ts";
import { McpManager } from "../main/extensions/mcp/manager.ts";
import { everythingStdio } from "../main/mcp/testing/servers.ts";
import { newToolSessionState, type ToolContext } from "../main/tools/types.ts";
import type { Figure } from "./figure.ts";

const BATCHES = 160;
const PER_BATCH = 50;
/** Calls per path before measuring: the SDK's and the server's code paths need JIT warmth. */
const WARMUP_BATCHES = 40;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** server-everything driven by hand: newline-delimited JSON-RPC on its stdin and stdout. */
async function rawServer() {
  const spec = everythingStdio();
  const child = spawn(spec.command, spec.args, { stdio: ["pipe", "pipe", "ignore"] });
  const lines = createInterface({ input: child.stdout });
  const waiting = new Map<number, (msg: unknown) => void>();
  lines.on("line", (line) => {
    const msg = JSON.parse(line) as { id?: number };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg);
  });
  let next = 1;
  const request = (method: string, params: unknown) =>
    new Promise<unknown>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "0" },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return {
    call: (message: string) => request("tools/call", { name: "echo", arguments: { message } }),
    stop: () => child.kill(),
  };
}

export async function benchMcpCall(): Promise<Figure[]> {
  const raw = await rawServer();
  const ext = new Contributions();
  const manager = new McpManager(ext.mcpServers, ext.registrar(), { warn: () => {} });
  const spec = everythingStdio();
  ext.registrar().mcpServer({ name: spec.name, source: "bench", spec });
  await manager.startAll();
  const tool = ext.tools.get("mcp__everything__echo")!;
  const state = newToolSessionState();
  // The engine knows its workdir once per conversation (os.tmpdir() costs ~40 µs a call here).
  const workdir = tmpdir();
  const viaEngine = async (message: string) => {
    const checked = tool.validate({ message });
    if (!checked.ok) throw new Error(checked.error);
    // Each call has its own signal, as the executor gives it (the SDK never drops its listener).
    const ctx: ToolContext = {
      workdir,
      signal: new AbortController().signal,
      state,
      timeoutMs: 60_000,
    };
    return tool.execute(checked.value, ctx);
  };
  const direct: number[] = [];
  const engine: number[] = [];
  const ratios: number[] = [];
  const time = async (fn: (m: string) => Promise<unknown>, into: number[]) => {
    const batch: number[] = [];
    for (let i = 0; i < PER_BATCH; i++) {
      const t0 = performance.now();
      await fn(`hello ${i}`);
      batch.push(performance.now() - t0);
    }
    into.push(...batch);
    return median(batch);
  };
  try {
    // Warm both paths (JIT, the server's first calls).
    for (let b = 0; b < WARMUP_BATCHES; b++) {
      await time(raw.call, []);
      await time(viaEngine, []);
    }
    for (let b = 0; b < BATCHES; b++) {
      const first = b % 2 === 0;
      const e1 = first ? await time(viaEngine, engine) : 0;
      const d1 = await time(raw.call, direct);
      const e2 = first ? e1 : await time(viaEngine, engine);
      ratios.push(e2 / d1);
    }
  } finally {
    raw.stop();
    await manager.close();
  }
  const d = median(direct);
  const e = median(engine);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return [
    {
      name: "MCP tool call (server-everything echo, stdio)",
      value: round(e),
      unit: "ms (median)",
      baseline: {
        name: "direct stdio JSON-RPC round trip, same server",
        value: round(d),
        unit: "ms",
      },
      ratio: Math.round(median(ratios) * 100) / 100,
    },
  ];
}

if (import.meta.main) console.log(JSON.stringify(await benchMcpCall(), null, 2));
