/**
 * transformMessages: plugins get the exact array about to be sent (system prompt at index 0,
 * positional ids m0001…) and return a new one for this call only. Handlers chain; an invalid
 * result is dropped with a notice and the previous array is kept. Returned messages are merged
 * back by id so fields plugins cannot see (thinking signatures, call ids) survive.
 */
import type { Message as SdkMessage } from "../../../plugins/sdk/index.ts";
import { makeMessage, type Message, type MessageRole } from "../../core/message.ts";
import { estimateMessage, estimateText } from "../tokens.ts";
import { runHandlers, type CommonOutcome } from "./pipeline.ts";
import type { HookContexts, HookHandler } from "./types.ts";

const ROLES: ReadonlySet<string> = new Set(["system", "user", "assistant", "tool"]);

function positionalId(i: number): string {
  return `m${String(i + 1).padStart(4, "0")}`;
}

export function toSdkMessages(
  system: string,
  messages: readonly Message[],
): { sdk: SdkMessage[]; originals: Map<string, Message> } {
  const originals = new Map<string, Message>();
  const sdk: SdkMessage[] = [
    {
      id: positionalId(0),
      role: "system",
      content: system,
      thinking: "",
      toolName: "",
      toolCallId: "",
      toolCalls: [],
      tokens: estimateText(system),
      type: "normal",
      createdAt: "",
    },
  ];
  messages.forEach((m, i) => {
    const id = positionalId(i + 1);
    originals.set(id, m);
    sdk.push({
      id,
      role: m.role,
      content: m.content,
      thinking: m.thinking ?? "",
      toolName: m.toolName ?? "",
      toolCallId: m.toolCallId ?? "",
      toolCalls: (m.toolCalls ?? []).map((c) => ({
        id: c.id,
        name: c.name,
        arguments: c.arguments,
      })),
      tokens: estimateMessage(m),
      type: m.kind === "normal" ? "normal" : "synthetic",
      createdAt: m.createdAt,
    });
  });
  return { sdk, originals };
}

/** The seed's ValidateTransformed: returns the first violation, or undefined. */
export function validateTransformed(msgs: unknown): string | undefined {
  if (!Array.isArray(msgs)) return "result is not an array of messages";
  if (msgs.length === 0) return "result is empty";
  const seenCalls = new Set<string>();
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i] as Partial<SdkMessage> | null;
    if (!m || typeof m !== "object") return `message ${i} is not an object`;
    if (typeof m.role !== "string" || !ROLES.has(m.role)) return `message ${i} has invalid role`;
    if (typeof m.content !== "string") return `message ${i} has no string content`;
    if (i === 0 && m.role !== "system") return "message 0 must be the system prompt";
    if (i > 0 && m.role === "system") return `message ${i}: only index 0 may be a system message`;
    for (const c of m.toolCalls ?? []) seenCalls.add(c.id);
    if (m.role === "tool" && !seenCalls.has(m.toolCallId ?? "")) {
      return `message ${i} is a tool result without a preceding call (${m.toolCallId || "no id"})`;
    }
  }
  return undefined;
}

function fromSdk(m: SdkMessage, originals: Map<string, Message>, source: string): Message {
  const original = originals.get(m.id);
  const role = m.role as MessageRole;
  const toolCalls =
    m.toolCalls && m.toolCalls.length > 0
      ? m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments ?? {} }))
      : undefined;
  if (original) {
    const merged: Message = { ...original, role, content: m.content };
    if (m.thinking !== (original.thinking ?? "")) merged.thinking = m.thinking || undefined;
    if (toolCalls || original.toolCalls) merged.toolCalls = toolCalls;
    return merged;
  }
  return makeMessage(role, m.content, {
    kind: "synthetic",
    source,
    thinking: m.thinking || undefined,
    toolCalls,
    toolCallId: m.toolCallId || undefined,
    toolName: m.toolName || undefined,
  });
}

export interface TransformOutcome extends CommonOutcome {
  system: string;
  messages: Message[];
}

export async function runTransform(
  handlers: readonly HookHandler<"transformMessages">[],
  base: Omit<HookContexts["transformMessages"], "messages">,
  system: string,
  messages: Message[],
): Promise<TransformOutcome> {
  const out: TransformOutcome = {
    injections: [],
    notices: [],
    disableTools: [],
    trace: [],
    system,
    messages,
  };
  if (handlers.length === 0) return out;
  let current = toSdkMessages(system, messages);
  // Rebuilt only when a handler changed the array (plugin hosts serialise each object once).
  let view: HookContexts["transformMessages"] | undefined;
  await runHandlers(
    handlers,
    () => (view ??= { ...base, messages: current.sdk }),
    out,
    (source, result, changed) => {
      const problem = validateTransformed(result);
      if (problem) {
        out.notices.push({ source, text: `${source}: transformMessages ignored: ${problem}` });
        changed.push("rejected", problem);
        return;
      }
      const merged = result.slice(1).map((m) => fromSdk(m, current.originals, source));
      out.system = result[0].content;
      out.messages = merged;
      current = toSdkMessages(out.system, merged);
      view = undefined;
      changed.push("messages", `${merged.length} messages`);
    },
  );
  return out;
}
