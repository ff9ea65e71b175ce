/**
 * The HTTP edge shared by all providers: one place where fetch failures, error statuses and
 * body-read failures become ProviderErrors, and where a user's stop passes through untouched.
 */
import { decodeText, type ByteSource } from "./lines.ts";
import { httpError, isAbortError, networkError, type ErrorContext } from "./errors.ts";

export type FetchLike = typeof fetch;

/** Error bodies are read up to this size; the message only needs the start. */
const MAX_ERROR_BODY = 64 * 1024;

function abortReason(signal: AbortSignal | undefined, err: unknown): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  return undefined;
}

async function readErrorBody(res: Response): Promise<string> {
  try {
    const text = await res.text();
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
  /** Whole-request limit (listing and probing calls; never for streamed chat). */
  timeoutMs?: number;
  fetch?: FetchLike;
}

/** Sends a request; resolves to the response only when it is 2xx, otherwise throws classified. */
export async function send(
  ctx: ErrorContext,
  url: string,
  opts: RequestOptions,
): Promise<Response> {
  const signals = [opts.signal, opts.timeoutMs ? AbortSignal.timeout(opts.timeoutMs) : undefined];
  const active = signals.filter((s): s is AbortSignal => s !== undefined);
  const signal = active.length > 1 ? AbortSignal.any(active) : active[0];
  const headers = { ...opts.headers };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, {
      method: opts.method ?? (opts.body === undefined ? "GET" : "POST"),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal,
    });
  } catch (err) {
    const reason = abortReason(opts.signal, err);
    if (reason !== undefined) throw reason;
    throw networkError(ctx, err);
  }
  if (!res.ok) throw httpError(ctx, res.status, await readErrorBody(res), res.headers);
  return res;
}

/** GET or POST returning parsed JSON (errors classified; invalid JSON is a server error). */
export async function requestJson(
  ctx: ErrorContext,
  url: string,
  opts: RequestOptions,
): Promise<unknown> {
  const res = await send(ctx, url, opts);
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw httpError(ctx, 502, `invalid JSON from ${url}: ${text.slice(0, 200)}`);
  }
}

/**
 * A response body as text chunks, where a dropped connection mid-stream becomes a network
 * ProviderError and a user's abort rethrows the abort reason.
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
