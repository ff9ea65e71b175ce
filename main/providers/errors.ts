/**
 * Failure classification: every way a provider call fails becomes one ProviderError with an SDK
 * error type and a one-line message naming the provider and what to do. Keys never appear in it.
 */
import type { ErrorType } from "../core/types.ts";
import { StallTimeout } from "./timeouts.ts";
import { ProviderError, type ProviderKind } from "./types.ts";

/** Who failed, for messages and advice. */
export interface ErrorContext {
  /** Configured provider name. */
  provider: string;
  kind: ProviderKind;
  baseUrl: string;
  model?: string;
  /** Environment variable the key came from, named in auth advice. */
  keyEnv?: string;
  /** Values to scrub from anything we repeat (API keys, header values). */
  secrets?: string[];
}

/** What a server said about an error, from whichever body shape it uses. */
interface ServerError {
  message: string;
  type: string;
  code: string;
}

const CONTEXT_RE =
  /context[_ ]length|context window|context size|maximum context|prompt is too long|too many tokens|exceeds? the (?:available |maximum )?context|input (?:is )?too long|n_ctx|num_ctx|exceed_context_size|max_tokens_exceeded/i;
const CREDIT_RE =
  /insufficient[_ ]quota|credit balance|billing|payment required|out of credits|insufficient (?:credits|funds|balance)|exceeded your current quota|requires more credits/i;
const MODEL_RE =
  /model_not_found|model\b[^.]*?\bnot (?:found|loaded|available)|no models? (?:is |are )?loaded|not loaded|unknown model|invalid model|no such model|model[^.]*does not exist/i;
const FILTER_RE =
  /content[_ ]filter|content[_ ]policy|content management policy|safety system|responsible ai/i;
const OVERLOADED_RE = /overloaded/i;

function str(v: unknown): string {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/**
 * Reads OpenAI `{error:{message,type,code}}`, Anthropic `{type:"error",error:{type,message}}`,
 * Ollama / LM Studio `{error:"..."}`, vLLM `{object:"error",message,type}` and plain text.
 */
export function readServerError(body: unknown): ServerError {
  if (typeof body === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return { message: body, type: "", code: "" };
    }
    return readServerError(parsed);
  }
  const obj = record(body);
  if (!obj) return { message: "", type: "", code: "" };
  const inner = record(obj.error);
  if (inner) {
    return { message: str(inner.message), type: str(inner.type), code: str(inner.code) };
  }
  if (typeof obj.error === "string") return { message: obj.error, type: "", code: str(obj.code) };
  return { message: str(obj.message) || str(obj.detail), type: str(obj.type), code: str(obj.code) };
}

/** The SDK error type for a status (0 = no HTTP status, e.g. a mid-stream error) and message. */
export function classify(status: number, err: ServerError): ErrorType {
  const text = `${err.message} ${err.type} ${err.code}`;
  if (status === 413 || CONTEXT_RE.test(text)) return "context_exhausted";
  if (status === 402 || CREDIT_RE.test(text)) return "credit_exhausted";
  if (FILTER_RE.test(text)) return "content_filter";
  if (status === 401 || status === 403) return "auth";
  if (/authentication_error|permission_error|invalid_api_key/.test(text)) return "auth";
  if (status === 429 || /rate_limit/.test(text)) return "rate_limit";
  if (status === 404 || status === 400 || status === 0) {
    if (MODEL_RE.test(text) || (status === 404 && /model/i.test(text))) return "model_unavailable";
  }
  if (status === 408) return "network";
  if (status >= 500 || OVERLOADED_RE.test(text) || /server_error|api_error/.test(text)) {
    return "server";
  }
  return "";
}

/** Retry-After as ms: `retry-after-ms` (OpenAI), then `retry-after` seconds or HTTP date. */
export function parseRetryAfter(
  headers: Headers | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) {
    return Math.max(0, Number(ms));
  }
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What must never be repeated in a message: the key and custom header values (often tokens). */
/** The error context of a provider call: what its messages name, and the secrets they must never show. */
export function providerErrorContext(
  p: { name: string; kind: ErrorContext["kind"]; baseUrl: string },
  opts: { apiKey?: string; headers?: Record<string, string> },
  keyEnv: string | undefined,
  model?: string,
): ErrorContext {
  return {
    provider: p.name,
    kind: p.kind,
    baseUrl: p.baseUrl,
    model,
    keyEnv,
    secrets: secretsOf(opts.apiKey, opts.headers),
  };
}

export function secretsOf(
  apiKey: string | undefined,
  headers: Record<string, string> = {},
): string[] {
  return [apiKey ?? "", ...Object.values(headers)].filter((s) => s.length >= 8);
}

/** Removes keys and key-shaped tokens, flattens to one line and bounds the length. */
export function scrub(text: string, secrets: string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length >= 6) out = out.split(s).join("***");
  out = out
    .replace(/\b(?:sk|pk|rk)-[A-Za-z0-9_*-]{8,}/g, "***")
    .replace(/(Bearer\s+)\S+/gi, "$1***")
    .replace(/\s+/g, " ")
    .trim();
  return out.length > 300 ? `${out.slice(0, 300)}…` : out;
}

/** A URL safe to print: user:password@ and query strings (which can hold keys) removed. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.search = "";
    return u.toString().replace(/\/$/, "");
  } catch {
    return url;
  }
}

function seconds(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))}s`;
}

/** [what happened, what to do] for a classified failure. */
function explain(type: ErrorType, ctx: ErrorContext, err: ServerError, retryAfterMs?: number) {
  const model = ctx.model ? `model "${ctx.model}"` : "the model";
  switch (type) {
    case "auth":
      return [
        "authentication failed",
        ctx.keyEnv ? `check ${ctx.keyEnv}` : "check the API key (api_key_env in providers.yaml)",
      ];
    case "rate_limit":
      return [
        "rate limited",
        retryAfterMs !== undefined ? `retry after ${seconds(retryAfterMs)}` : "wait and retry",
      ];
    case "server":
      return OVERLOADED_RE.test(`${err.type} ${err.message}`)
        ? ["overloaded", "retry in a moment"]
        : ["server error", "retry later"];
    case "credit_exhausted":
      return ["out of credits or quota", "check billing for this account"];
    case "model_unavailable":
      return [
        `${model} is not available`,
        ctx.kind === "ollama" && ctx.model
          ? `pull it with \`ollama pull ${ctx.model}\` or pick another model`
          : "check the model name (`islet models` lists local ones)",
      ];
    case "context_exhausted":
      return [
        "the prompt exceeds the model's context window",
        ctx.kind === "anthropic"
          ? "compact the conversation or start a new one"
          : "compact the conversation, start a new one, or give the server a larger context",
      ];
    case "content_filter":
      return ["blocked by the content filter", "rephrase the request"];
    case "network":
      return [
        `cannot reach ${displayUrl(ctx.baseUrl)}`,
        "check that the server is running and base_url is right",
      ];
    default:
      // Ollama "does not support tools", llama.cpp "tools param requires --jinja".
      return /\btools?\b/i.test(err.message)
        ? [
            "request failed",
            "if the model cannot call tools natively, set `tools: text` for this provider in providers.yaml",
          ]
        : ["request failed", ""];
  }
}

function build(
  ctx: ErrorContext,
  type: ErrorType,
  status: number,
  err: ServerError,
  retryAfterMs: number | undefined,
  cause?: unknown,
): ProviderError {
  const [what, advice] = explain(type, ctx, err, retryAfterMs);
  const said = scrub(err.message || err.type || err.code, ctx.secrets);
  const parts = [`${ctx.provider}: ${what}${status ? ` (${status})` : ""}`];
  if (said && said.toLowerCase() !== what) parts[0] += `: ${said}`;
  if (advice) parts.push(advice);
  return new ProviderError(parts.join(" — "), type, status, retryAfterMs, { cause });
}

/** A non-2xx response. */
export function httpError(
  ctx: ErrorContext,
  status: number,
  bodyText: string,
  headers?: Headers,
): ProviderError {
  const err = readServerError(bodyText);
  if (!err.message && !err.type) err.message = bodyText.trim().slice(0, 300);
  const type = classify(status, err);
  const location = headers?.get("location");
  if (status >= 300 && status < 400 && location) {
    return new ProviderError(
      `${ctx.provider}: ${displayUrl(ctx.baseUrl)} redirects (${status}) to ${displayUrl(location)} — set base_url to the new address`,
      "",
      status,
    );
  }
  // A 404 that says nothing about a model is a wrong URL, not a missing model.
  if (status === 404 && type !== "model_unavailable") {
    return new ProviderError(
      `${ctx.provider}: endpoint not found (404) at ${displayUrl(ctx.baseUrl)} — check base_url`,
      "",
      404,
    );
  }
  return build(ctx, type, status, err, parseRetryAfter(headers));
}

/** An error reported inside a stream (Anthropic `event: error`, OpenAI/Ollama error chunks). */
export function streamError(ctx: ErrorContext, payload: unknown): ProviderError {
  const err = readServerError(payload);
  return build(ctx, classify(0, err), 0, err, undefined);
}

/** True for a cancellation (user stop), which must pass through unclassified. */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === "AbortError";
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found (DNS)",
  EAI_AGAIN: "DNS lookup failed",
  ETIMEDOUT: "connection timed out",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_HEADERS_TIMEOUT: "no response in time",
  UND_ERR_BODY_TIMEOUT: "the stream stalled",
  UND_ERR_SOCKET: "connection reset",
  UND_ERR_CLOSED: "connection closed",
};

/** "0.7 s", "300 s": a limit as configured (seconds). */
function limit(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 10_000 ? 2 : 0))} s`;
}

/** A connect, first-token or idle limit fired: which one, after how long, and what to do. */
export function timeoutError(ctx: ErrorContext, t: StallTimeout): ProviderError {
  const url = displayUrl(ctx.baseUrl);
  const field = `providers.${ctx.provider}.timeouts.${t.kind}`;
  const what =
    t.kind === "connect"
      ? `could not connect to ${url} within ${limit(t.ms)} (connect timeout) — check that the server is running and reachable, or raise ${field} in providers.yaml`
      : t.kind === "first_token"
        ? `no first token from ${ctx.model ? `${ctx.model} at ` : ""}${url} after ${limit(t.ms)} (first_token timeout) — raise ${field} in providers.yaml if the model needs longer to load`
        : `the answer stalled: nothing from ${url} for ${limit(t.ms)} (idle timeout) — raise ${field} in providers.yaml if the model pauses longer`;
  return new ProviderError(`${ctx.provider}: ${what}`, "network", 0, undefined, {
    cause: t,
    timeout: t.kind,
  });
}

/** A connection or body-read failure (no HTTP status): refused, DNS, stalls, resets. */
export function networkError(ctx: ErrorContext, err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof StallTimeout) return timeoutError(ctx, err);
  let reason = "";
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = str((e as { code?: unknown }).code);
    if (code && NETWORK_CODES[code]) {
      reason = NETWORK_CODES[code];
      break;
    }
    if (e instanceof Error && e.name === "TimeoutError") {
      reason = "timed out";
      break;
    }
    e = e instanceof Error ? e.cause : undefined;
  }
  if (!reason)
    reason = err instanceof Error && err.message === "terminated" ? "connection lost" : "";
  if (!reason) {
    // undici says only "fetch failed"; the useful words are in the innermost cause.
    let inner: unknown = err;
    while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
    reason = scrub(inner instanceof Error ? inner.message : String(inner), ctx.secrets);
  }
  return new ProviderError(
    `${ctx.provider}: cannot reach ${displayUrl(ctx.baseUrl)}: ${reason} — check that the server is running and base_url is right`,
    "network",
    0,
    undefined,
    { cause: err },
  );
}

/** The stream ended before the server said it was finished (connection dropped mid-answer). */
export function truncatedStreamError(ctx: ErrorContext): ProviderError {
  return new ProviderError(
    `${ctx.provider}: the response stream ended before the answer finished — retry`,
    "network",
  );
}
