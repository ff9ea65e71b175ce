/**
 * A conversation's display history: the AgentEvents a window needs to draw it again after a
 * restart. The engine saves these events as they happen (session `event` records); sessions saved
 * before that have only messages, and get the nearest history their messages allow.
 * Plain TypeScript, no Node: the renderer may bundle this file.
 */
import type { AgentEvent, AgentEventType } from "./events.ts";
import type { Message } from "./message.ts";

/**
 * The events a saved history keeps: everything a transcript shows. Streaming pieces (deltas,
 * thinking deltas, withdrawn attempts), the context meter and retries are left out: the final
 * `assistant` / `thinking` events carry the text, and a reload starts a new meter.
 */
export const HISTORY_EVENT_TYPES: ReadonlySet<AgentEventType> = new Set<AgentEventType>([
  "user_message",
  "command_output",
  "assistant",
  "thinking",
  "tool_call",
  "tool_result",
  "notice",
  "injected",
  "agent_switch",
  "compaction",
  "error",
  "hook_trace",
  "extensions_offered",
  "done",
]);

export function isHistoryEvent(event: AgentEvent): boolean {
  return HISTORY_EVENT_TYPES.has(event.type);
}

/**
 * The history of a session saved without events, from its messages: prompts, answers, thinking,
 * tool calls and results (their duration is unknown: 0), plugin messages and compaction summaries.
 */
export function historyFromMessages(messages: readonly Message[]): AgentEvent[] {
  const out: AgentEvent[] = [];
  for (const m of messages) {
    if (m.role === "system") continue;
    if (m.kind === "summary") {
      out.push({ type: "notice", source: "compaction", text: m.content });
      continue;
    }
    if (m.kind === "synthetic" && (m.role === "user" || m.role === "assistant")) {
      out.push({ type: "injected", source: m.source ?? "plugin", role: m.role, text: m.content });
      continue;
    }
    if (m.role === "user") {
      out.push({ type: "user_message", text: m.content });
    } else if (m.role === "assistant") {
      if (m.thinking) out.push({ type: "thinking", text: m.thinking });
      if (m.content !== "" || !m.toolCalls?.length)
        out.push({ type: "assistant", text: m.content });
      for (const c of m.toolCalls ?? [])
        out.push({ type: "tool_call", id: c.id, name: c.name, arguments: c.arguments });
    } else {
      out.push({
        type: "tool_result",
        id: m.toolCallId ?? "",
        name: m.toolName ?? "",
        output: m.content,
        error: m.isError === true,
        durationMs: 0,
      });
    }
  }
  return out;
}
