/**
 * One model step of the turn loop: BeforeChat → TransformMessages → provider call with recovery
 * → AfterResponse. The loop (loop.ts) owns history; this step edits it through `StepHost`.
 */
import type { AgentConfig } from "../agents/definition.ts";
import type { ChatRequest, ToolSpec } from "../providers/types.ts";
import type { ProviderError } from "../providers/types.ts";
import { filterTools } from "../tools/registry.ts";
import type { Tool } from "../tools/types.ts";
import type { ListedItem } from "../tools/listing.ts";
import { turnOffer } from "./offer/choose.ts";
import { reportOffer } from "./offer/report.ts";
import { subAgentsListed } from "./agent-tool-rules.ts";
import { buildContext } from "./context.ts";
import { runBeforeChat } from "./hooks/pipeline.ts";
import { runTransform } from "./hooks/transform.ts";
import type { Injection } from "./hooks/types.ts";
import type { Message } from "../core/message.ts";
import type { ModelResponse } from "./model-call.ts";
import { reportOutcome } from "./report.ts";
import type { AgentState, EngineDeps } from "./state.ts";
import { callWithRecovery } from "./recovery.ts";
import { accountResponse, runAfterResponsePhase } from "./response-phase.ts";

export type StepResult =
  | {
      kind: "response";
      response: ModelResponse;
      offered: Map<string, Tool>;
      /** AfterResponse put messages into history: the model gets another step to answer them. */
      followUp: boolean;
    }
  | { kind: "skipped" }
  | { kind: "error"; error: ProviderError };

/** What the step needs from the session that runs it. */
export interface StepHost {
  readonly state: AgentState;
  readonly deps: EngineDeps;
  append(message: Message): void;
  inject(injections: readonly Injection[]): void;
  /** Ejectable messages the model call saw leave history. */
  eject(seen: ReadonlySet<string>): void;
  ensureModel(): Promise<void>;
  switchAgent(name: string): Promise<void>;
  agentTools(): Tool[];
  /** `keep`: the listed extensions (skills) the turn offers; unset, all of them. */
  systemPrompt(extra: readonly string[], keep?: (item: ListedItem) => boolean): string;
}

export async function runChatStep(
  host: StepHost,
  signal: AbortSignal,
  final: boolean,
): Promise<StepResult> {
  const { deps, state } = host;
  const allTools = host.agentTools();
  // Past the prompt budget only the turn's chosen extensions are shown (offer/choose.ts).
  state.offer = turnOffer(
    {
      state,
      tools: allTools,
      listings: deps.listings?.() ?? [],
      systemPrompt: (keep) => host.systemPrompt([], keep),
    },
    state.offer,
  );
  const { offer, search } = state.offer;
  const keep = offer.cut ? offer.keep : undefined;
  reportOffer(deps, state, offer);
  const agentTools = offer.tools(allTools);
  state.availableTools = agentTools.map((t) => t.name);
  state.lastSystemPrompt = host.systemPrompt([], keep);
  // An agent limited to some sub-agents (`Agent(worker)`) sees only those in Task's list.
  const only = subAgentsListed(state.agent);
  const specOf = (t: Tool) => offer.spec(t, t.name === "Task" ? only : undefined);
  // The calls whose results this model call reads: told once (Claude's PostToolBatch).
  const toolBatch = state.toolBatch;
  state.toolBatch = undefined;
  const before = await runBeforeChat(deps.hooks.handlers("beforeChat"), {
    ...buildContext(state, deps, agentTools.map(specOf)),
    ...(toolBatch ? { toolBatch } : {}),
  });
  reportOutcome(deps, before, { state });
  host.inject(before.injections);
  if (before.skip) return { kind: "skipped" };

  // The agent's allow-list (which is what lets opt-in tools through), minus what hooks disabled:
  // beforeChat for this call, other hooks for the rest of the user turn.
  // SearchTools joins after the allow-list: an agent's `tools` cannot have named it.
  const offeredTools = final
    ? []
    : [
        ...filterTools(agentTools, {
          enabled: state.agent.tools ?? [],
          disabled: [...state.turnDisabledTools, ...before.disableTools],
        }),
        ...(search ? [search] : []),
      ];
  const offered = new Map(offeredTools.map((t) => [t.name, t]));
  const specs: ToolSpec[] = offeredTools.map(specOf);
  state.availableTools = offeredTools.map((t) => t.name);
  state.lastSystemPrompt = host.systemPrompt(before.appendSystem, keep);

  let seen = new Set<string>();
  const prepare = async (): Promise<ChatRequest> => {
    const transformed = await runTransform(
      deps.hooks.handlers("transformMessages"),
      buildContext(state, deps, specs),
      state.lastSystemPrompt,
      state.messages,
    );
    reportOutcome(deps, transformed, { state });
    seen = new Set(state.messages.map((m) => m.id));
    const agent: AgentConfig = state.agent;
    return {
      model: state.resolved!.model,
      system: transformed.system,
      messages: transformed.messages,
      tools: specs,
      signal,
      thinking: agent.thinking ?? deps.thinkMode,
    };
  };

  const called = await callWithRecovery(
    {
      state,
      deps,
      switchAgent: (n) => host.switchAgent(n),
      ensureModel: () => host.ensureModel(),
    },
    prepare,
    signal,
  );
  if (called.kind === "error") return called;
  const response = called.response;
  // OnError chose skip: the turn ends quietly, as if the model had said nothing.
  if (response.stopReason === "skipped") return { kind: "skipped" };
  host.eject(seen);
  accountResponse(state, deps, response);
  const after = await runAfterResponsePhase(state, deps, response, {
    append: (m) => host.append(m),
    inject: (i) => host.inject(i),
  });
  return {
    kind: "response",
    response: after.kept ? response : { ...response, toolCalls: [] },
    offered,
    followUp: after.injected > 0,
  };
}
