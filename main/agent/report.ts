/** Tells the host what a hook pipeline run produced: notices to show and the hook timeline. */
import type { CommonOutcome } from "./hooks/pipeline.ts";
import type { EngineDeps } from "./state.ts";

export function reportOutcome(deps: Pick<EngineDeps, "emit">, outcome: CommonOutcome): void {
  for (const n of outcome.notices) deps.emit({ type: "notice", source: n.source, text: n.text });
  if (outcome.trace.length > 0) deps.emit({ type: "hook_trace", entries: outcome.trace });
}
