/**
 * Test support for the turn loop: a real AgentSession wired to a real OpenAI-compatible provider
 * against a loopback fake server, real built-in tools in a temporary workdir, and a real
 * session store when asked.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_AGENT, type AgentConfig } from "../agents/definition.ts";
import { OpenAIProvider } from "../providers/openai.ts";
import { startFakeOpenAI } from "../providers/testing/fake-openai.ts";
import type { FakeServer } from "../providers/testing/fake-server.ts";
import type { ScriptedResponse } from "../providers/testing/script.ts";
import type { Timeouts } from "../providers/timeouts.ts";
import { builtinTools } from "../tools/index.ts";
import { ToolRegistry } from "../tools/registry.ts";
import type { AgentEvent } from "./events.ts";
import { NO_HOOKS, type HookRegistry } from "./hooks/types.ts";
import { AgentSession } from "./loop.ts";
import type { SessionSink } from "./session-sink.ts";
import type { EngineDeps, ResolvedModel } from "./state.ts";

export interface Harness {
  server: FakeServer;
  session: AgentSession;
  events: AgentEvent[];
  workdir: string;
  deps: EngineDeps;
  of<T extends AgentEvent["type"]>(type: T): Extract<AgentEvent, { type: T }>[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  hooks?: HookRegistry;
  agents?: AgentConfig[];
  contextLength?: number;
  deps?: Partial<EngineDeps>;
  session?: SessionSink;
  /** Extra providers by agent name (failover tests). */
  servers?: Record<string, FakeServer>;
  /** The provider's connect, first-token and idle limits (stall tests). */
  timeouts?: Partial<Timeouts>;
}

export async function startHarness(
  script: ScriptedResponse[],
  opts: HarnessOptions = {},
): Promise<Harness> {
  const server = await startFakeOpenAI(script);
  const workdir = await mkdtemp(path.join(tmpdir(), "islet-loop-"));
  const events: AgentEvent[] = [];
  const registry = new ToolRegistry();
  for (const t of builtinTools()) registry.register(t);
  const agents = new Map<string, AgentConfig>([[DEFAULT_AGENT.name, DEFAULT_AGENT]]);
  for (const a of opts.agents ?? []) agents.set(a.name, a);
  const resolveModel = async (agent: AgentConfig): Promise<ResolvedModel> => {
    const target = opts.servers?.[agent.name] ?? server;
    const provider = new OpenAIProvider({
      name: agent.name === DEFAULT_AGENT.name ? "fake" : `fake-${agent.name}`,
      baseUrl: target.url,
      contextLength: opts.contextLength ?? 32768,
      timeouts: opts.timeouts,
    });
    return { provider, model: "fake-model", info: await provider.modelInfo("fake-model") };
  };
  const deps: EngineDeps = {
    workdir,
    agents,
    resolveModel,
    tools: registry,
    hooks: opts.hooks ?? NO_HOOKS,
    approve: async () => ({ allowed: true }),
    emit: (e) => events.push(e),
    session: opts.session ?? null,
    compaction: { enabled: true, threshold: 80, keepLast: 4 },
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    promptFragments: () => [],
    vars: {},
    thinkMode: "off",
    toolTimeoutMs: 10_000,
    mcpServers: () => [],
    ...opts.deps,
  };
  const session = new AgentSession(deps, { agent: DEFAULT_AGENT.name, sessionId: "test-session" });
  return {
    server,
    session,
    events,
    workdir,
    deps,
    of: <T extends AgentEvent["type"]>(type: T) =>
      events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type),
    async close() {
      await server.close();
      for (const s of Object.values(opts.servers ?? {})) await s.close();
      await rm(workdir, { recursive: true, force: true });
    },
  };
}

/** The messages array a chat request carried (OpenAI wire shape). */
export function sentMessages(
  server: FakeServer,
  index: number,
): { role: string; content?: unknown; tool_call_id?: string }[] {
  const body = server.chatRequests[index].body as {
    messages: { role: string; content?: unknown; tool_call_id?: string }[];
  };
  return body.messages;
}

export function sentTools(server: FakeServer, index: number): string[] {
  const body = server.chatRequests[index].body as { tools?: { function: { name: string } }[] };
  return (body.tools ?? []).map((t) => t.function.name);
}
