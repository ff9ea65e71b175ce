/** What a fake model server answers, one entry per chat request, in order. */

export interface ScriptedToolCall {
  /** Defaults to a protocol-style id (call_…, toolu_…); Ollama sends none unless given. */
  id?: string;
  name: string;
  /** An object, or a raw string streamed as-is (use it to send malformed JSON). */
  arguments: Record<string, unknown> | string;
  /** Number of argument fragments streamed (OpenAI, Anthropic); default 3. */
  fragments?: number;
}

export interface ScriptedError {
  status: number;
  /** Server message; each protocol has a realistic default per status. */
  message?: string;
  /** Protocol error type (Anthropic "overloaded_error", OpenAI "invalid_request_error"…). */
  type?: string;
  /** OpenAI error code ("context_length_exceeded", "insufficient_quota"…). */
  code?: string;
  headers?: Record<string, string>;
  /** Exact response body; replaces the protocol's realistic one. */
  body?: string;
}

export interface ScriptedResponse {
  /** Reasoning chunks, streamed before the text. */
  thinking?: string[];
  /** Anthropic thinking-block signature (default "sig-…" when thinking is given). */
  signature?: string;
  /** Answer text chunks. */
  text?: string[];
  /** Tool calls after the text (OpenAI and Anthropic stream argument fragments). */
  toolCalls?: ScriptedToolCall[];
  /** Usage reported at the end (defaults to small numbers). */
  usage?: { input: number; output: number };
  /** Raw protocol stop reason; defaults follow the content (tool calls, stop). */
  stopReason?: string;
  /** Answer with an HTTP error instead of a stream. */
  error?: ScriptedError;
  /** After the content, report an error inside the stream (then close). */
  streamError?: { message: string; type?: string };
  /**
   * After the content, keep the connection open and never finish (abort tests; an idle stall
   * when there was content, a first-token stall when there was none: headers only).
   */
  hang?: boolean;
  /** Stream each wire piece whole with this pause before the next (a slow but live server). */
  pauseMs?: number;
  /** Accept the request and never answer, not even the headers (a stalled or loading server). */
  silent?: boolean;
  /** Close the connection after the content without the protocol's end marker. */
  truncate?: boolean;
  /** Benchmarks: stream `tokens` one-token text deltas as fast as possible. */
  fast?: { tokens: number; token?: string };
}

/** A chunk the client receives: one SSE event or NDJSON line, already terminated. */
export type WirePiece = string;

/** Splits a string into `n` roughly equal parts (argument fragments). */
export function fragments(s: string, n: number): string[] {
  const count = Math.max(1, Math.min(n, s.length));
  const size = Math.ceil(s.length / count);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out.length > 0 ? out : [""];
}

export function argsJson(args: Record<string, unknown> | string): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

/** Text deltas for fast mode. */
export function fastTokens(fast: { tokens: number; token?: string }): string[] {
  const token = fast.token ?? " tok";
  return Array.from({ length: fast.tokens }, () => token);
}

const fastCache = new WeakMap<ScriptedResponse, Map<string, WirePiece[]>>();

/**
 * Fast-mode answers are encoded once per response object and protocol, so a benchmark reusing
 * one response measures the client, not the fake server's JSON encoding.
 */
export function encodeOnce(
  r: ScriptedResponse,
  protocol: string,
  encode: () => WirePiece[],
): WirePiece[] {
  if (!r.fast) return encode();
  let byProtocol = fastCache.get(r);
  if (!byProtocol) fastCache.set(r, (byProtocol = new Map()));
  let pieces = byProtocol.get(protocol);
  if (!pieces) byProtocol.set(protocol, (pieces = encode()));
  return pieces;
}
