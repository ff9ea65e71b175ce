/** The conversation model: what a session holds and what providers receive. */

export type MessageRole = "system" | "user" | "assistant" | "tool";

export interface ToolCallRequest {
  /** Provider-generated call id (toolu_…, call_…) or one we made up for providers without ids. */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * normal: typed by the user or produced by the model/tools.
 * synthetic: injected by a plugin or hook (shown marked in the UI, sent to the model).
 * summary: the compaction summary that replaced older messages.
 */
export type MessageKind = "normal" | "synthetic" | "summary";

export interface Message {
  /** Stable unique id within the session. */
  id: string;
  role: MessageRole;
  content: string;
  kind: MessageKind;
  /** ISO timestamp. */
  createdAt: string;
  thinking?: string;
  /** Opaque provider signature for thinking blocks (Anthropic) that must be echoed back. */
  thinkingSignature?: string;
  /** Assistant messages: the tool calls it asked for. */
  toolCalls?: ToolCallRequest[];
  /** Tool messages: which call this answers, and the tool's name. */
  toolCallId?: string;
  toolName?: string;
  /** Tool messages: the result is an error. */
  isError?: boolean;
  /** Who injected a synthetic message (plugin or hook name). */
  source?: string;
  /** Removed from history after the turn it was injected into. */
  eject?: boolean;
}

let counter = 0;

/** Short sortable unique id: time in base36 plus a counter and randomness. */
export function newId(prefix = "m"): string {
  counter = (counter + 1) % 1679616;
  const rand = Math.floor(Math.random() * 1679616)
    .toString(36)
    .padStart(4, "0");
  return `${prefix}_${Date.now().toString(36)}${counter.toString(36).padStart(4, "0")}${rand}`;
}

export function makeMessage(
  role: MessageRole,
  content: string,
  extra: Partial<Omit<Message, "role" | "content">> = {},
): Message {
  return {
    id: extra.id ?? newId(),
    role,
    content,
    kind: extra.kind ?? "normal",
    createdAt: extra.createdAt ?? new Date().toISOString(),
    ...extra,
  };
}
