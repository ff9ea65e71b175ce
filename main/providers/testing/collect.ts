/** Test helpers for provider streams. */
import { makeMessage, type Message } from "../../core/message.ts";
import type { ChatRequest, StreamEvent, ToolSpec } from "../types.ts";

export async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of events) out.push(ev);
  return out;
}

/** Adjacent text and thinking deltas joined, so assertions read like the answer. */
export function joined(events: StreamEvent[]): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const ev of events) {
    const last = out[out.length - 1];
    if ((ev.type === "text" || ev.type === "thinking") && last?.type === ev.type) {
      out[out.length - 1] = { type: ev.type, text: last.text + ev.text };
    } else {
      out.push(ev);
    }
  }
  return out;
}

export const READ_TOOL: ToolSpec = {
  name: "Read",
  description: "Read a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

/** A conversation with every shape a provider must map: tool calls, results, thinking. */
export function sampleConversation(): Message[] {
  const at = { createdAt: "2026-01-01T00:00:00.000Z" };
  return [
    makeMessage("user", "Read a and b", { id: "m1", ...at }),
    makeMessage("assistant", "Reading both.", {
      id: "m2",
      ...at,
      thinking: "I should read them.",
      thinkingSignature: "sig-1",
      toolCalls: [
        { id: "call_a", name: "Read", arguments: { path: "a" } },
        { id: "call_b", name: "Read", arguments: { path: "b" } },
      ],
    }),
    makeMessage("tool", "contents of a", {
      id: "m3",
      ...at,
      toolCallId: "call_a",
      toolName: "Read",
    }),
    makeMessage("tool", "no such file: b", {
      id: "m4",
      ...at,
      toolCallId: "call_b",
      toolName: "Read",
      isError: true,
    }),
    makeMessage("assistant", "a says hi; b is missing.", { id: "m5", ...at }),
    makeMessage("user", "Thanks", { id: "m6", ...at }),
  ];
}

export function request(model: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model,
    system: "You are terse.",
    messages: [makeMessage("user", "hi", { id: "u1" })],
    tools: [],
    ...extra,
  };
}
