/** Small pieces every provider's stream decoder shares. */
import { newId, type ToolCallRequest } from "../core/message.ts";
import { INVALID_TOOL_NAME, type StreamEvent } from "./types.ts";

/** Maps each server's finish vocabulary onto StopReason; tool calls always win. */
export function normalizeStopReason(raw: string | null | undefined, hadToolCalls: boolean): string {
  if (hadToolCalls) return "tool_calls";
  switch (raw) {
    case undefined:
    case null:
    case "":
    case "stop":
    case "end_turn":
    case "stop_sequence":
    case "eos":
      return "stop";
    case "length":
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_calls":
    case "tool_use":
    case "function_call":
      return "tool_calls";
    case "content_filter":
    case "refusal":
      return "content_filter";
    default:
      return raw;
  }
}

export function newCallId(): string {
  return newId("call");
}

function excerpt(s: string, max = 200): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A tool_call event from a name and raw arguments (a JSON string as streamed, or an object as
 * Ollama sends). Unreadable arguments give `arguments: {}` plus an `error` for the loop to report.
 */
export function toolCallEvent(id: string, name: string, raw: string | unknown): StreamEvent {
  const call: ToolCallRequest = {
    id: id || newCallId(),
    name: name || INVALID_TOOL_NAME,
    arguments: {},
  };
  if (!name) {
    return {
      type: "tool_call",
      call,
      error: "the tool call has no tool name; call again with one",
    };
  }
  let value: unknown = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return { type: "tool_call", call };
    try {
      value = JSON.parse(raw);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return {
        type: "tool_call",
        call,
        error: `the arguments for ${name} are not valid JSON (${why}): ${excerpt(raw)} — call again with a JSON object`,
      };
    }
  }
  if (value === undefined || value === null) return { type: "tool_call", call };
  if (!isPlainObject(value)) {
    return {
      type: "tool_call",
      call,
      error: `the arguments for ${name} must be a JSON object, got: ${excerpt(JSON.stringify(value))}`,
    };
  }
  call.arguments = value;
  return { type: "tool_call", call };
}

/** Strips trailing slashes so `${baseUrl}/path` never doubles them. */
export function trimBaseUrl(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Loopback and private-network hosts: where local model servers live. */
export function isLocalUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  return (
    host === "localhost" ||
    host === "::1" ||
    host.endsWith(".local") ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    host === "0.0.0.0"
  );
}

/** A provider's wire decoder: synchronous, fed one network chunk of text at a time. */
export interface StreamDecoder {
  /**
   * True once the server has sent part of the answer itself (text, thinking, a tool-call
   * fragment, the end): a preamble such as a role chunk or message_start does not count.
   */
  readonly answering: boolean;
  /** Appends the events this text completes; true once the server signalled the end. */
  push(text: string, out: StreamEvent[]): boolean;
  /** End of input: appends the closing events, or throws if the stream was cut short. */
  end(out: StreamEvent[]): void;
}

/**
 * Runs a decoder over text chunks with one async hop per event and none per line or JSON value.
 * An error is thrown only after the events that preceded it in the same chunk. `onAnswer` is
 * called once, when the decoder first sees the answer begin (the first-token limit ends there).
 */
export async function* pump(
  chunks: AsyncIterable<string>,
  decoder: StreamDecoder,
  onAnswer?: () => void,
): AsyncGenerator<StreamEvent> {
  const out: StreamEvent[] = [];
  let failed = false;
  let failure: unknown;
  let finished = false;
  for await (const text of chunks) {
    try {
      finished = decoder.push(text, out);
    } catch (err) {
      failed = true;
      failure = err;
    }
    if (onAnswer && decoder.answering) {
      onAnswer();
      onAnswer = undefined;
    }
    for (let i = 0; i < out.length; i++) yield out[i];
    out.length = 0;
    if (failed) throw failure;
    if (finished) break;
  }
  decoder.end(out);
  for (let i = 0; i < out.length; i++) yield out[i];
}

/** Configured headers plus `Authorization: Bearer` when a key is set (OpenAI-compatible, Ollama). */
export function bearerHeaders(opts: {
  apiKey?: string;
  headers?: Record<string, string>;
}): Record<string, string> {
  const h: Record<string, string> = { ...opts.headers };
  if (opts.apiKey) h.authorization = `Bearer ${opts.apiKey}`;
  return h;
}
