/**
 * OpenAI-compatible chat completions (llama.cpp server, LM Studio, vLLM, OpenAI, OpenRouter…):
 * POST {baseUrl}/chat/completions with SSE streaming.
 */
import type { Message } from "../core/message.ts";
import type { ModelInfo } from "../core/types.ts";
import {
  isLocalUrl,
  normalizeStopReason,
  pump,
  toolCallEvent,
  bearerHeaders,
  trimBaseUrl,
  type StreamDecoder,
} from "./common.ts";
import {
  providerErrorContext,
  streamError,
  truncatedStreamError,
  type ErrorContext,
} from "./errors.ts";
import { requestJson, send, streamAnswer } from "./http.ts";
import { resolveTimeouts, type Timeouts } from "./timeouts.ts";
import { SseDecoder } from "./sse.ts";
import { ThinkTagSplitter } from "./think-tags.ts";
import type { ChatRequest, ModelSummary, Provider, StreamEvent } from "./types.ts";

export interface OpenAIProviderOptions {
  /** Configured name; defaults to "openai-compatible". */
  name?: string;
  /** Up to and including the API version, e.g. http://127.0.0.1:8080/v1 or https://api.openai.com/v1. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer` only when set. */
  apiKey?: string;
  /** Where the key came from, for error advice. */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  /** Known context window; wins over anything the server reports. */
  contextLength?: number;
  /** Known capabilities; default ["tools"] plus what the server reports. */
  capabilities?: string[];
  /** Connect, first-token and idle limits (ms); unset ones default by locality (timeouts.ts). */
  timeouts?: Partial<Timeouts>;
}

type Json = Record<string, unknown>;

/** Our conversation as chat-completions messages (system first, tool results as role "tool"). */
export function toOpenAIMessages(system: string, messages: Message[]): Json[] {
  const out: Json[] = [];
  if (system) out.push({ role: "system", content: system });
  for (const m of messages) {
    if (m.role === "tool") {
      out.push({ role: "tool", tool_call_id: m.toolCallId ?? "", content: m.content });
    } else if (m.role === "assistant" && m.toolCalls && m.toolCalls.length > 0) {
      out.push({
        role: "assistant",
        content: m.content,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        })),
      });
    } else {
      out.push({ role: m.role, content: m.content });
    }
  }
  return out;
}

/** The exact request body sent for a chat request. */
export function toOpenAIBody(req: ChatRequest, baseUrl: string): Json {
  const body: Json = {
    model: req.model,
    messages: toOpenAIMessages(req.system, req.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  if (req.maxTokens !== undefined) {
    // OpenAI's reasoning models reject max_tokens; local servers only know max_tokens.
    const field = /api\.openai\.com/.test(baseUrl) ? "max_completion_tokens" : "max_tokens";
    body[field] = req.maxTokens;
  }
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.thinking && req.thinking !== "off") body.reasoning_effort = req.thinking;
  return body;
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/**
 * Chat-completion chunks to StreamEvents. Tool calls arrive as fragments keyed by `index`; they
 * are emitted whole after the last chunk. Usage follows the finish chunk, so done comes last.
 */
class OpenAIDecoder implements StreamDecoder {
  private readonly sse = new SseDecoder();
  private readonly think = new ThinkTagSplitter();
  private readonly calls = new Map<number, PendingCall>();
  private lastCallKey = -1;
  private finish: string | undefined;
  private usage: StreamEvent | undefined;
  private sawDone = false;
  answering = false;
  private readonly ctx: ErrorContext;

  constructor(ctx: ErrorContext) {
    this.ctx = ctx;
  }

  push(text: string, out: StreamEvent[]): boolean {
    for (const ev of this.sse.push(text)) {
      this.event(ev.data, out);
      if (this.sawDone) return true;
    }
    return false;
  }

  end(out: StreamEvent[]): void {
    if (!this.sawDone) for (const ev of this.sse.end()) this.event(ev.data, out);
    if (!this.sawDone && this.finish === undefined) throw truncatedStreamError(this.ctx);
    this.think.end(out);
    const ordered = [...this.calls.entries()].sort((a, b) => a[0] - b[0]);
    for (const [, c] of ordered) out.push(toolCallEvent(c.id, c.name, c.args));
    if (this.usage) out.push(this.usage);
    out.push({ type: "done", stopReason: normalizeStopReason(this.finish, this.calls.size > 0) });
  }

  private event(data: string, out: StreamEvent[]): void {
    if (data === "[DONE]") {
      this.sawDone = true;
      this.answering = true;
      return;
    }
    let chunk: Json;
    try {
      chunk = JSON.parse(data) as Json;
    } catch {
      const message = `malformed stream chunk: ${data.slice(0, 120)}`;
      throw streamError(this.ctx, { error: { message, type: "server_error" } });
    }
    if (chunk.error) throw streamError(this.ctx, chunk);
    const u = chunk.usage as Json | null | undefined;
    if (u && typeof u.prompt_tokens === "number") {
      this.answering = true;
      const output = typeof u.completion_tokens === "number" ? u.completion_tokens : 0;
      this.usage = { type: "usage", inputTokens: u.prompt_tokens, outputTokens: output };
    }
    const choice = (chunk.choices as Json[] | undefined)?.[0];
    if (!choice) return;
    const delta = choice.delta as Json | undefined;
    // The first chunk often carries only the role: not yet part of the answer.
    if (!this.answering && (typeof choice.finish_reason === "string" || hasContent(delta)))
      this.answering = true;
    if (delta) {
      // llama.cpp, DeepSeek, LM Studio: reasoning_content; vLLM ≥ 0.10, OpenRouter: reasoning.
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === "string" && reasoning.length > 0)
        out.push({ type: "thinking", text: reasoning });
      const content = delta.content;
      if (typeof content === "string" && content.length > 0) this.think.push(content, out);
      if (delta.tool_calls) this.toolDeltas(delta.tool_calls as Json[]);
    }
    if (typeof choice.finish_reason === "string") this.finish = choice.finish_reason;
  }

  private toolDeltas(deltas: Json[]): void {
    for (let i = 0; i < deltas.length; i++) {
      const tc = deltas[i];
      const id = typeof tc.id === "string" ? tc.id : "";
      let key: number;
      // Servers without `index` (some proxies) mark a new call by a new id.
      if (typeof tc.index === "number") key = tc.index;
      else if (id && ![...this.calls.values()].some((c) => c.id === id)) key = this.calls.size;
      else key = this.lastCallKey >= 0 ? this.lastCallKey : i;
      this.lastCallKey = key;
      let call = this.calls.get(key);
      if (!call) this.calls.set(key, (call = { id: "", name: "", args: "" }));
      if (id && !call.id) call.id = id;
      const fn = tc.function as Json | undefined;
      if (!fn) continue;
      if (typeof fn.name === "string" && fn.name && !call.name) call.name = fn.name;
      if (typeof fn.arguments === "string") call.args += fn.arguments;
      else if (fn.arguments && typeof fn.arguments === "object")
        call.args += JSON.stringify(fn.arguments);
    }
  }
}

function hasContent(delta: Json | undefined): boolean {
  if (!delta) return false;
  const text = (v: unknown) => typeof v === "string" && v.length > 0;
  return (
    text(delta.content) ||
    text(delta.reasoning_content) ||
    text(delta.reasoning) ||
    (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0)
  );
}

export function decodeOpenAIStream(
  chunks: AsyncIterable<string>,
  ctx: ErrorContext,
): AsyncGenerator<StreamEvent> {
  return pump(chunks, new OpenAIDecoder(ctx));
}

interface ModelEntry {
  id?: unknown;
  max_model_len?: unknown;
  context_length?: unknown;
  context_window?: unknown;
  meta?: { n_ctx_train?: unknown; n_params?: unknown };
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0;
}

/** Short limit for the best-effort model-info probes. */
const PROBE_TIMEOUT_MS = 3000;

export class OpenAIProvider implements Provider {
  readonly name: string;
  readonly kind = "openai-compatible" as const;
  readonly baseUrl: string;
  private readonly opts: OpenAIProviderOptions;
  private readonly timeouts: Timeouts;

  constructor(opts: OpenAIProviderOptions) {
    this.opts = opts;
    this.name = opts.name ?? "openai-compatible";
    this.baseUrl = trimBaseUrl(opts.baseUrl);
    this.timeouts = resolveTimeouts(this.baseUrl, opts.timeouts);
  }

  private ctx(model?: string): ErrorContext {
    return providerErrorContext(this, this.opts, this.opts.apiKeyEnv, model);
  }

  private headers(): Record<string, string> {
    return bearerHeaders(this.opts);
  }

  chat(req: ChatRequest): AsyncGenerator<StreamEvent> {
    const ctx = this.ctx(req.model);
    const open = () =>
      send(ctx, `${this.baseUrl}/chat/completions`, {
        headers: { ...this.headers(), accept: "text/event-stream" },
        body: toOpenAIBody(req, this.baseUrl),
        signal: req.signal,
        timeouts: this.timeouts,
      });
    return streamAnswer(ctx, open, new OpenAIDecoder(ctx), req.signal);
  }

  private async modelEntries(signal?: AbortSignal, timeoutMs?: number): Promise<ModelEntry[]> {
    const body = (await requestJson(this.ctx(), `${this.baseUrl}/models`, {
      headers: this.headers(),
      signal,
      timeoutMs,
      timeouts: this.timeouts,
    })) as { data?: unknown };
    return Array.isArray(body.data) ? (body.data as ModelEntry[]) : [];
  }

  async listModels(signal?: AbortSignal): Promise<ModelSummary[]> {
    const entries = await this.modelEntries(signal, 10_000);
    return entries.filter((e) => typeof e.id === "string").map((e) => ({ name: e.id as string }));
  }

  /**
   * Best effort, never throws for missing endpoints: /models (vLLM max_model_len, OpenRouter
   * context_length, llama.cpp meta), and on local servers llama.cpp /props (the running n_ctx)
   * and LM Studio /api/v0/models/{id}.
   */
  async modelInfo(model: string, signal?: AbortSignal): Promise<ModelInfo> {
    const root = this.baseUrl.replace(/\/v1$/, "");
    const local = isLocalUrl(this.baseUrl);
    const get = (url: string) =>
      requestJson(this.ctx(model), url, {
        headers: this.headers(),
        signal,
        timeoutMs: PROBE_TIMEOUT_MS,
        timeouts: this.timeouts,
      }) as Promise<Json>;
    const [entries, props, lms] = await Promise.allSettled([
      this.modelEntries(signal, PROBE_TIMEOUT_MS),
      local ? get(`${root}/props`) : Promise.reject(new Error("remote")),
      local
        ? get(`${root}/api/v0/models/${encodeURIComponent(model)}`)
        : Promise.reject(new Error("remote")),
    ]);
    if (signal?.aborted) throw signal.reason;
    const entry =
      entries.status === "fulfilled" ? entries.value.find((e) => e.id === model) : undefined;
    const p = props.status === "fulfilled" ? props.value : {};
    const l = lms.status === "fulfilled" ? lms.value : {};
    const settings = (p.default_generation_settings ?? {}) as Json;
    const contextLength =
      this.opts.contextLength ||
      num(settings.n_ctx) ||
      num(p.n_ctx) ||
      num(l.loaded_context_length) ||
      num(l.max_context_length) ||
      num(entry?.max_model_len) ||
      num(entry?.context_length) ||
      num(entry?.context_window) ||
      num(entry?.meta?.n_ctx_train);
    const capabilities = this.opts.capabilities ? [...this.opts.capabilities] : ["tools"];
    const vision = (p.modalities as Json | undefined)?.vision === true || l.type === "vlm";
    if (!this.opts.capabilities && vision) capabilities.push("vision");
    return {
      name: model,
      family: typeof l.arch === "string" ? l.arch : "",
      parameterCount: num(entry?.meta?.n_params),
      contextLength,
      capabilities,
    };
  }
}
