/**
 * Tool calling for models without native tool support: the tools and an exact calling convention
 * go into the system prompt, calls are parsed out of the streamed answer, and history is
 * re-rendered in the same text form so the model sees one consistent convention.
 *
 * Convention (Qwen/Hermes style, which small local models follow well):
 *   <tool_call>
 *   {"name": "Read", "arguments": {"path": "a.txt"}}
 *   </tool_call>
 * Results return in a user message:
 *   <tool_result name="Read">…output…</tool_result>      (error="true" on failures)
 *
 * A block that cannot be read becomes a tool_call event with `arguments: {}` and `error` set (see
 * StreamEvent in types.ts); its name is the one the model wrote, else INVALID_TOOL_NAME. The loop
 * answers it with the error, so the model learns the exact format and retries.
 */
import type { Message, ToolCallRequest } from "../core/message.ts";
import { newCallId } from "./common.ts";
import { ToolCallTextParser, type ParsedPiece } from "./text-tool-parser.ts";
import {
  INVALID_TOOL_NAME,
  type ChatRequest,
  type JsonSchema,
  type Provider,
  type StreamEvent,
  type ToolSpec,
} from "./types.ts";

function exampleValue(schema: unknown): unknown {
  const type = (schema as { type?: unknown } | undefined)?.type;
  if (type === "number" || type === "integer") return 1;
  if (type === "boolean") return true;
  if (type === "array") return [];
  if (type === "object") return {};
  return "…";
}

function exampleArgs(params: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of params.required ?? []) out[key] = exampleValue(params.properties?.[key]);
  return out;
}

/** The system-prompt section describing the tools and how to call them. */
export function renderToolPrompt(tools: ToolSpec[]): string {
  const first = tools[0];
  const lines = [
    "# Tools",
    "",
    "You can use the tools listed below. To call a tool, write a tool call block exactly like this:",
    "",
    "<tool_call>",
    '{"name": "TOOL_NAME", "arguments": {"ARGUMENT_NAME": "value"}}',
    "</tool_call>",
    "",
    "Rules:",
    '- The block holds one JSON object with two keys: "name" (a tool from the list) and "arguments" (a JSON object matching that tool\'s parameters).',
    "- To call several tools, write several blocks, one after another.",
    "- After your tool call blocks, stop. The results come back in the next message as <tool_result> blocks.",
    "- Never write <tool_result> yourself and never guess a result.",
    "- When you need no tool, just answer, without any block.",
  ];
  if (first) {
    lines.push(
      "",
      "Example:",
      "",
      renderToolCall({ id: "", name: first.name, arguments: exampleArgs(first.parameters) }),
    );
  }
  lines.push("", "## Available tools");
  for (const t of tools) {
    lines.push(
      "",
      `### ${t.name}`,
      t.description.trim(),
      `Parameters (JSON Schema): ${JSON.stringify(t.parameters)}`,
    );
  }
  return lines.join("\n");
}

export function renderToolCall(call: ToolCallRequest): string {
  return `<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n</tool_call>`;
}

function renderToolResult(m: Message): string {
  const name = (m.toolName ?? "").replace(/"/g, "'");
  return `<tool_result name="${name}"${m.isError ? ' error="true"' : ""}>\n${m.content}\n</tool_result>`;
}

/** History with tool calls as text and tool results as user messages (consecutive ones merged). */
export function toTextProtocolMessages(messages: Message[]): Message[] {
  const out: Message[] = [];
  let resultGroup: Message | undefined;
  for (const m of messages) {
    if (m.role === "tool") {
      if (resultGroup) resultGroup.content += `\n${renderToolResult(m)}`;
      else {
        resultGroup = {
          id: m.id,
          role: "user",
          content: renderToolResult(m),
          kind: m.kind,
          createdAt: m.createdAt,
        };
        out.push(resultGroup);
      }
      continue;
    }
    resultGroup = undefined;
    if (m.role === "assistant" && m.toolCalls?.length) {
      const calls = m.toolCalls.map(renderToolCall).join("\n");
      const { toolCalls: _dropped, ...rest } = m;
      out.push({ ...rest, content: m.content ? `${m.content}\n\n${calls}` : calls });
      continue;
    }
    out.push(m);
  }
  return out;
}

function toEvent(p: Exclude<ParsedPiece, { type: "text" }>): StreamEvent {
  const call = { id: newCallId(), name: p.name || INVALID_TOOL_NAME, arguments: p.arguments };
  return p.error ? { type: "tool_call", call, error: p.error } : { type: "tool_call", call };
}

function* toEvents(pieces: ParsedPiece[]): Generator<StreamEvent> {
  for (const p of pieces) yield p.type === "text" ? { type: "text", text: p.text } : toEvent(p);
}

async function* chatWithTextTools(inner: Provider, req: ChatRequest): AsyncGenerator<StreamEvent> {
  const messages = toTextProtocolMessages(req.messages);
  if (req.tools.length === 0) {
    yield* inner.chat({ ...req, messages });
    return;
  }
  const system = [req.system, renderToolPrompt(req.tools)].filter(Boolean).join("\n\n");
  const parser = new ToolCallTextParser(req.tools.map((t) => t.name));
  let usage: StreamEvent | undefined;
  let stopReason: string | undefined;
  for await (const ev of inner.chat({ ...req, system, messages, tools: [] })) {
    if (ev.type === "text") {
      yield* toEvents(parser.push(ev.text));
      // The model began inventing a tool result: stop generating (leaving the loop cancels it).
      if (parser.stopped) break;
    } else if (ev.type === "usage") usage = ev;
    else if (ev.type === "done") stopReason = ev.stopReason;
    else yield ev;
  }
  yield* toEvents(parser.end());
  if (usage) yield usage;
  yield { type: "done", stopReason: parser.calls > 0 ? "tool_calls" : (stopReason ?? "stop") };
}

/** The same provider, with tools offered and parsed as text instead of the native API. */
export function withTextToolProtocol(provider: Provider): Provider {
  return {
    name: provider.name,
    kind: provider.kind,
    baseUrl: provider.baseUrl,
    chat: (req) => chatWithTextTools(provider, req),
    listModels: (signal) => provider.listModels(signal),
    modelInfo: (model, signal) => provider.modelInfo(model, signal),
  };
}
