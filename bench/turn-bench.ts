/**
 * Agent turn overhead: one user turn with 3 tool calls and a streamed answer, through the real
 * AgentSession with 10 plugins in their own isolates (the mix of Aura's example plugins: 3 on
 * beforeChat, 3 on afterResponse, 4 on afterToolExecution), approval, the tool executor and the
 * session file, against a loopback provider streaming as fast as it can. Baseline in the same
 * run: a minimal loop over the same provider and tool (chat, run the calls, chat again) with
 * nothing else. Goal (SPEC §11): ≤ 1.3×.
 *
 * Run alone: node --no-node-snapshot bench/turn-bench.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { DEFAULT_AGENT } from "../main/agents/definition.ts";
import { resolveHomes } from "../main/config/homes.ts";
import { Contributions } from "../main/contributions/contributions.ts";
import type { PluginRuntime } from "../main/code-plugins/runtime/runtime.ts";
import { createPluginRuntime } from "../main/code-plugins/setup.ts";
import { AgentSession } from "../main/turn/loop.ts";
import { makeMessage, type Message, type ToolCallRequest } from "../main/core/message.ts";
import { savingEmit, storeSink } from "../main/engine/session-sink.ts";
import { OpenAIProvider } from "../main/providers/openai.ts";
import { startFakeOpenAI } from "../main/providers/testing/fake-openai.ts";
import type { ScriptedResponse } from "../main/providers/testing/script.ts";
import { SessionStore } from "../main/sessions/store.ts";
import { defineTool } from "../main/tools/define.ts";
import { ToolRegistry } from "../main/tools/registry.ts";
import { newToolSessionState, toolSpec } from "../main/tools/types.ts";
import { formatProblem } from "../main/host/problem.ts";

const ANSWER_TOKENS = 2000;
const RUNS = 60;

const echo = defineTool({
  name: "Echo",
  description: "Returns its text.",
  args: { text: z.string() },
  parallel: true,
  execute: async ({ text }) => text,
});

function script(): ScriptedResponse[] {
  return [
    { toolCalls: [1, 2, 3].map((i) => ({ name: "Echo", arguments: { text: `call ${i}` } })) },
    { fast: { tokens: ANSWER_TOKENS } },
  ];
}

const PLUGIN_HOOKS = [
  ...Array.from(
    { length: 3 },
    () =>
      "export function beforeChat(ctx) { if (ctx.todo.pending > 99) return { message: 'todos' }; }",
  ),
  ...Array.from(
    { length: 3 },
    () =>
      "export function afterResponse(ctx) { if (ctx.response.empty) return { message: 'empty' }; }",
  ),
  ...Array.from(
    { length: 4 },
    () =>
      "export function afterToolExecution(ctx) { if (ctx.stats.tools.errors > 99) return { notice: 'errors' }; }",
  ),
];

/** Ten plugins in the engine's contributions (the hooks are read through its one hook registry). */
async function tenPlugins(
  root: string,
): Promise<{ runtime: PluginRuntime; contributions: Contributions }> {
  for (const [i, code] of PLUGIN_HOOKS.entries()) {
    const dir = join(root, "home", "plugins", `p${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "plugin.yaml"), "description: bench\n");
    writeFileSync(join(dir, "index.js"), code);
  }
  const contributions = new Contributions();
  const runtime = await createPluginRuntime({
    homes: resolveHomes({ home: join(root, "home"), workdir: root }),
    flags: {},
    env: {},
    registrar: contributions.registrar(),
    contextFallback: () => {
      throw new Error("no plugin tools here");
    },
    warn: (problem) => console.error(formatProblem(problem)),
  });
  return { runtime, contributions };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function benchTurnOverhead(): Promise<{
  engineMs: number;
  rawMs: number;
  ratio: number;
}> {
  const server = await startFakeOpenAI([]);
  const provider = new OpenAIProvider({
    name: "bench",
    baseUrl: server.url,
    contextLength: 128_000,
  });
  const dir = mkdtempSync(join(tmpdir(), "islet-bench-turn-"));
  const store = new SessionStore(join(dir, "sessions"));
  const registry = new ToolRegistry();
  registry.register(echo);
  const info = await provider.modelInfo("fake-model");
  const specs = [toolSpec(echo)];
  const plugins = await tenPlugins(dir);

  async function engineTurn(): Promise<number> {
    const id = await store.create({
      workdir: dir,
      agent: "default",
      provider: "bench",
      model: "fake-model",
    });
    const sink = storeSink(store, id, (e) => {
      throw e;
    });
    const session = new AgentSession(
      {
        workdir: dir,
        agents: new Map([["default", DEFAULT_AGENT]]),
        resolveModel: async () => ({ provider, model: "fake-model", info }),
        tools: registry,
        hooks: plugins.contributions.hooks,
        approve: async () => ({ allowed: true }),
        // As the engine wires it: display events (hook traces included) are saved with the turn.
        emit: savingEmit(() => {}, sink),
        session: sink,
        compaction: { enabled: true, threshold: 80, keepLast: 6 },
        retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
        promptFragments: () => [],
        vars: {},
        thinkMode: "off",
        toolTimeoutMs: 10_000,
        mcpServers: () => [],
      },
      { agent: "default", sessionId: id },
    );
    server.push(...script());
    const t0 = performance.now();
    const out = await session.send("go");
    const ms = performance.now() - t0;
    if (out.status !== "done") throw new Error(`bench turn ended with ${out.status}`);
    await store.close(id);
    return ms;
  }

  async function rawTurn(): Promise<number> {
    server.push(...script());
    const t0 = performance.now();
    const messages: Message[] = [makeMessage("user", "go")];
    for (;;) {
      const calls: ToolCallRequest[] = [];
      let text = "";
      for await (const ev of provider.chat({
        model: "fake-model",
        system: "You are a bench.",
        messages,
        tools: specs,
      })) {
        if (ev.type === "text") text += ev.text;
        else if (ev.type === "tool_call") calls.push(ev.call);
      }
      messages.push(
        makeMessage("assistant", text, { toolCalls: calls.length ? calls : undefined }),
      );
      if (calls.length === 0) break;
      const ctx = {
        workdir: dir,
        signal: new AbortController().signal,
        state: newToolSessionState(),
        timeoutMs: 10_000,
      };
      for (const c of calls)
        messages.push(
          makeMessage("tool", await echo.execute(c.arguments, ctx), {
            toolCallId: c.id,
            toolName: c.name,
          }),
        );
    }
    return performance.now() - t0;
  }

  try {
    for (let i = 0; i < 5; i++) {
      await rawTurn();
      await engineTurn();
    }
    const engine: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      raw.push(await rawTurn());
      engine.push(await engineTurn());
    }
    const engineMs = median(engine);
    const rawMs = median(raw);
    return { engineMs, rawMs, ratio: engineMs / rawMs };
  } finally {
    await plugins.runtime.dispose();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const r = await benchTurnOverhead();
  console.log(
    `turn: engine ${r.engineMs.toFixed(2)} ms, raw loop ${r.rawMs.toFixed(2)} ms, ×${r.ratio.toFixed(2)}`,
  );
}
