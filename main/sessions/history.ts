/**
 * A saved session's display history (what `chat/history` returns): the messages saved before the
 * session had event records, as the nearest events they allow, then every saved event in order.
 * Events are validated here, not at load: a plain load skips them, and a bad one (damaged, or
 * written by a newer Islet in a shape this one does not know) is left out with a warning.
 */
import { AgentEvent } from "../core/events.ts";
import { historyFromMessages } from "../core/history.ts";
import type { SavedHistory } from "./reconstruct.ts";
import type { SessionStore } from "./store.ts";
import type { Problem, ProblemSink } from "../host/problem.ts";

export function displayHistory(saved: SavedHistory): {
  events: AgentEvent[];
  warnings: Problem[];
} {
  const events = historyFromMessages(saved.legacy);
  const warnings: Problem[] = [];
  for (const { event, where } of saved.events) {
    const parsed = AgentEvent.safeParse(event);
    if (parsed.success) {
      events.push(parsed.data);
      continue;
    }
    const issue = parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    warnings.push({
      source: "sessions",
      ...where,
      title: `skipped event: ${at}${issue?.message ?? "invalid"}`,
    });
  }
  return { events, warnings };
}

/**
 * A saved session's display history (what `chat/history` returns): the events it emitted, or,
 * for a session saved before events were, the nearest its messages allow. Bad events are left
 * out, each reported through `warn` (the file's other warnings were reported when it was opened).
 */
export async function savedDisplayHistory(
  store: Pick<SessionStore, "load">,
  sessionId: string,
  warn: ProblemSink,
): Promise<AgentEvent[]> {
  const saved = await store.load(sessionId, { history: true });
  const { events, warnings } = displayHistory(saved.history ?? { legacy: [], events: [] });
  for (const w of warnings) warn(w);
  return events;
}
