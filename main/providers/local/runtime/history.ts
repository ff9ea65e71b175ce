/**
 * Islet's conversation as node-llama-cpp's chat history. An assistant message, the results of its
 * tool calls and the assistant messages that continue after them are one model response (how
 * chat templates render an agent's steps), so the rendered text of a turn is a prefix of the next
 * turn's and the context sequence's cache covers it.
 */
import type {
  ChatHistoryItem,
  ChatModelFunctionCall,
  ChatModelResponse,
  LlamaTextJSON,
} from "node-llama-cpp";
import type { WireMessage } from "../protocol.ts";
import { ToolOutput } from "./tool-syntax.ts";

/** A call whose result never came (the turn was stopped): the model must not wait for it. */
const NO_RESULT = "(no result: the call was not run)";

export function toChatHistory(system: string, messages: WireMessage[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = [];
  if (system) items.push({ type: "system", text: system });
  let model: ChatModelResponse | undefined;
  const pending = new Map<string, ChatModelFunctionCall>();
  for (const m of messages) {
    if (m.role === "assistant") {
      if (!model) {
        model = { type: "model", response: [] };
        items.push(model);
      }
      if (m.thinking) {
        model.response.push({
          type: "segment",
          segmentType: "thought",
          text: m.thinking,
          ended: true,
        });
      }
      if (m.content) model.response.push(m.content);
      (m.toolCalls ?? []).forEach((c, i) => {
        const call: ChatModelFunctionCall = {
          type: "functionCall",
          name: c.name,
          params: c.arguments,
          result: new ToolOutput(NO_RESULT, true),
          startsNewChunk: i === 0,
          ...(c.raw !== undefined ? { rawCall: c.raw as LlamaTextJSON } : {}),
        };
        model!.response.push(call);
        pending.set(c.id, call);
      });
      continue;
    }
    if (m.role === "tool") {
      const call = m.toolCallId !== undefined ? pending.get(m.toolCallId) : undefined;
      if (call) {
        call.result = new ToolOutput(m.content, m.isError === true);
        continue;
      }
    }
    // A user or system message ends the model's response; so does a tool result without its call.
    model = undefined;
    pending.clear();
    const text =
      m.role === "tool" ? `Result of ${m.toolName ?? "a tool"}:\n${m.content}` : m.content;
    items.push(m.role === "system" ? { type: "system", text } : { type: "user", text });
  }
  // The answer is generated into a model response: the open one, or a new one.
  if (!model) items.push({ type: "model", response: [] });
  return items;
}

/** The first words of a conversation: which cached sequence to continue it on. */
export function conversationKey(system: string, messages: WireMessage[]): string {
  const first = messages.find((m) => m.role === "user")?.content ?? "";
  return `${system.slice(0, 2000)}\u0000${first.slice(0, 2000)}`;
}
