/** Tells the host what a hook pipeline run produced: notices to show and the hook timeline. */
import type { CommonOutcome } from "./hooks/pipeline.ts";
import type { AgentState, EngineDeps } from "./state.ts";

/** Where in the conversation a hook point ran, so the timeline can put it under its turn. */
export interface TraceAt {
  state: Pick<AgentState, "stats" | "iteration">;
  /** The tool call a beforeToolExecution / afterToolExecution point ran for. */
  call?: { id: string; name: string };
}

export function reportOutcome(
  deps: Pick<EngineDeps, "emit">,
  outcome: CommonOutcome,
  at: TraceAt,
): void {
  for (const n of outcome.notices) deps.emit({ type: "notice", source: n.source, text: n.text });
  if (outcome.trace.length === 0) return;
  deps.emit({
    type: "hook_trace",
    entries: outcome.trace,
    turn: at.state.stats.interactions,
    step: at.state.iteration,
    ...(at.call ? { toolCallId: at.call.id, toolName: at.call.name } : {}),
  });
}
