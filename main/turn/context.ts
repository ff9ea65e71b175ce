/** Builds the SDK Context that every hook receives, from the loop's state. */
import type { Context, Turn } from "../../plugins/sdk/index.ts";
import type { ModelInfo } from "../core/types.ts";
import type { ToolSpec } from "../providers/types.ts";
import { snapshotStats } from "./stats.ts";
import type { AgentState, EngineDeps } from "./state.ts";
import { tokenState } from "./tokens.ts";

const EMPTY_MODEL: ModelInfo = {
  name: "",
  family: "",
  parameterCount: 0,
  contextLength: 0,
  capabilities: [],
};

/** Text-only user/assistant turns: no system, tool, synthetic or summary messages. */
function turnsOf(state: AgentState): Turn[] {
  const turns: Turn[] = [];
  for (const m of state.messages) {
    if (m.kind !== "normal") continue;
    if (m.role === "user" || m.role === "assistant") {
      if (m.content !== "") turns.push({ role: m.role, content: m.content });
    }
  }
  return turns;
}

export function contextWindow(state: AgentState): number {
  return state.resolved?.info.contextLength || 0;
}

/** How full the context window is, as hooks see it in `ctx.tokens`. */
export function contextTokens(
  state: AgentState,
  toolSpecs: readonly ToolSpec[] = [],
): ReturnType<typeof tokenState> {
  return tokenState(
    state.lastSystemPrompt,
    state.messages,
    toolSpecs,
    contextWindow(state),
    state.lastApiTokens,
  );
}

export function buildContext(
  state: AgentState,
  deps: EngineDeps,
  toolSpecs: readonly ToolSpec[] = [],
): Context {
  const todos = state.tools.todos;
  return {
    iteration: state.iteration,
    tokens: contextTokens(state, toolSpecs),
    agent: state.agent.name,
    mode: "",
    modelInfo: state.resolved ? { ...state.resolved.info } : { ...EMPTY_MODEL },
    stats: snapshotStats(state.stats),
    workdir: deps.workdir,
    messageCount: state.messages.length,
    auto: false,
    // Done mode: the agent finishes by calling Done (it is among the offered tools).
    doneActive: state.availableTools.includes("Done"),
    hasToolCalls: state.lastResponse.hasToolCalls,
    maxSteps: deps.maxSteps ?? state.agent.maxSteps,
    response: { empty: state.lastResponse.empty, contentEmpty: state.lastResponse.contentEmpty },
    todo: {
      pending: todos.filter((t) => t.status === "pending").length,
      inProgress: todos.filter((t) => t.status === "in_progress").length,
      total: todos.length,
    },
    patchCounts: { ...state.patchCounts },
    toolHistory: state.toolHistory.map((t) => ({ ...t })),
    session: { id: state.sessionId, title: state.title },
    provider: state.resolved?.provider.name ?? "",
    thinkMode: state.agent.thinking ?? deps.thinkMode,
    features: {
      sandbox: { enabled: false, requested: false },
      readBeforeWrite: true,
      showThinking: true,
      compactionEnabled: deps.compaction.enabled,
    },
    availableTools: [...state.availableTools],
    loadedTools: [],
    turns: turnsOf(state),
    systemPrompt: state.lastSystemPrompt,
    mcpServers: deps.mcpServers(),
    vars: { ...deps.vars },
    pluginConfig: {},
  };
}
