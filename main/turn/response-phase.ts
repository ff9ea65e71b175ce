/**
 * What happens once a model step has answered: stats and events (accountResponse), then
 * AfterResponse decides what enters history (runAfterResponsePhase).
 */
import type { ToolCall } from "../core/types.ts";
import { buildContext, contextTokens } from "./context.ts";
import { runAfterResponse } from "./hooks/pipeline.ts";
import type { Injection } from "./hooks/types.ts";
import { makeMessage, type Message } from "../core/message.ts";
import type { ModelResponse } from "./model-call.ts";
import { reportOutcome } from "./report.ts";
import type { AgentState, EngineDeps } from "./state.ts";

export function accountResponse(
  state: AgentState,
  deps: EngineDeps,
  response: ModelResponse,
): void {
  state.stats.turns++;
  state.stats.tokens.in += response.inputTokens;
  state.stats.tokens.out += response.outputTokens;
  if (response.inputTokens > 0) state.lastApiTokens = response.inputTokens;
  state.lastResponse = {
    empty: response.content === "" && response.toolCalls.length === 0,
    contentEmpty: response.content.trim() === "",
    hasToolCalls: response.toolCalls.length > 0,
  };
  if (response.thinking) deps.emit({ type: "thinking", text: response.thinking });
  deps.emit({ type: "assistant", text: response.content });
  for (const c of response.toolCalls) {
    deps.emit({ type: "tool_call", id: c.id, name: c.name, arguments: c.arguments });
  }
  deps.emit({ type: "tokens", tokens: contextTokens(state) });
}

/** kept: false when the response stays out of history (its tool calls then do not run). */
export async function runAfterResponsePhase(
  state: AgentState,
  deps: EngineDeps,
  response: ModelResponse,
  history: { append(message: Message): void; inject(injections: readonly Injection[]): void },
): Promise<{ kept: boolean; injected: number }> {
  const calls: ToolCall[] = response.toolCalls.map((c) => ({
    name: c.name,
    args: c.arguments,
    argsJson: JSON.stringify(c.arguments),
    result: "",
    error: "",
    duration: 0,
  }));
  const after = await runAfterResponse(deps.hooks.handlers("afterResponse"), {
    ...buildContext(state, deps),
    content: response.content,
    thinking: response.thinking,
    calls,
  });
  reportOutcome(deps, after, { state });
  state.turnDisabledTools.push(...after.disableTools);
  const keep =
    !after.skip &&
    (response.content !== "" || response.toolCalls.length > 0 || response.thinking !== "");
  if (keep) {
    history.append(
      makeMessage("assistant", after.content ?? response.content, {
        thinking: response.thinking || undefined,
        thinkingSignature: response.thinkingSignature,
        toolCalls: response.toolCalls.length > 0 ? response.toolCalls : undefined,
      }),
    );
  }
  history.inject(after.injections);
  return { kept: !after.skip, injected: after.injections.length };
}
