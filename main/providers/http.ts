/**
 * The HTTP edge shared by all providers: one place where connection failures, stalls, error
 * statuses and body-read failures become ProviderErrors, and where a user's stop passes through
 * untouched. Every request runs under the provider's connect, first-token and idle limits.
 */
import { pump, type StreamDecoder } from "./common.ts";
import { decodeText, type ByteSource } from "./lines.ts";
import { httpError, isAbortError, networkError, type ErrorContext } from "./errors.ts";
import type { Timeouts } from "./timeouts.ts";
import { timedRequest, type TimedResponse } from "./transport.ts";
import type { StreamEvent } from "./types.ts";

export type { TimedResponse } from "./transport.ts";

/** Error bodies are read up to this size; the message only needs the start. */
const MAX_ERROR_BODY = 64 * 1024;

function abortReason(signal: AbortSignal | undefined, err: unknown): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  return undefined;
}

async function readBody(res: TimedResponse, max = Infinity): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    parts.push(chunk);
    size += chunk.byteLength;
    if (size >= max) break;
  }
  return Buffer.concat(parts).toString("utf8");
}

async function readErrorBody(res: TimedResponse): Promise<string> {
  try {
    const text = await readBody(res, MAX_ERROR_BODY);
    return text.length > MAX_ERROR_BODY ? text.slice(0, MAX_ERROR_BODY) : text;
  } catch {
    return "";
  }
}

export interface RequestOptions {
  method?: "GET" | "POST";
  headers: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
  timeouts: Timeouts;
  /** Whole-request limit (listing and probing calls; never for streamed chat). */
  timeoutMs?: number;
}

/** Sends a request; resolves to the response only when it is 2xx, otherwise throws classified. */
export async function send(
  ctx: ErrorContext,
  url: string,
  opts: RequestOptions,
): Promise<TimedResponse> {
  const signals = [opts.signal, opts.timeoutMs ? AbortSignal.timeout(opts.timeoutMs) : undefined];
  const active = signals.filter((s): s is AbortSignal => s !== undefined);
  const signal = active.length > 1 ? AbortSignal.any(active) : active[0];
  const headers = { ...opts.headers };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  let res: TimedResponse;
  try {
    res = await timedRequest({
      url,
      method: opts.method ?? (opts.body === undefined ? "GET" : "POST"),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal,
      timeouts: opts.timeouts,
    });
  } catch (err) {
    const reason = abortReason(opts.signal, err);
    if (reason !== undefined) throw reason;
    throw networkError(ctx, err);
  }
  if (res.status < 200 || res.status > 299) {
    throw httpError(ctx, res.status, await readErrorBody(res), res.headers);
  }
  return res;
}

/** GET or POST returning parsed JSON (errors classified; invalid JSON is a server error). */
export async function requestJson(
  ctx: ErrorContext,
  url: string,
  opts: RequestOptions,
): Promise<unknown> {
  const res = await send(ctx, url, opts);
  let text: string;
  try {
    text = await readBody(res);
  } catch (err) {
    const reason = abortReason(opts.signal, err);
    if (reason !== undefined) throw reason;
    throw networkError(ctx, err);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw httpError(ctx, 502, `invalid JSON from ${url}: ${text.slice(0, 200)}`);
  }
}

/**
 * A response body as text chunks, where a dropped or stalled connection mid-stream becomes a
 * network ProviderError and a user's abort rethrows the abort reason.
 */
export async function* bodyText(
  ctx: ErrorContext,
  body: ByteSource | null,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  if (!body) return;
  try {
    yield* decodeText(body);
  } catch (err) {
    const reason = abortReason(signal, err);
    if (reason !== undefined) throw reason;
    if (isAbortError(err)) throw err;
    throw networkError(ctx, err);
  }
}

/**
 * A streamed chat answer: the request, its body decoded into events, and the first-token limit
 * ended by the decoder when the answer itself begins (the idle limit applies from then on).
 * Events come straight from pump (one async hop each); only the few body chunks pass through
 * the extra generator.
 */
export function streamAnswer(
  ctx: ErrorContext,
  open: () => Promise<TimedResponse>,
  decoder: StreamDecoder,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent> {
  let res: TimedResponse | undefined;
  async function* chunks(): AsyncGenerator<string> {
    res = await open();
    yield* bodyText(ctx, res.body, signal);
  }
  return pump(chunks(), decoder, () => res?.answering());
}
