/** Anthropic Messages API: POST {baseUrl}/v1/messages with SSE streaming. */
import type { Message } from "../core/message.ts";
import { PROVIDER_KIND_TABLE } from "../core/provider-kinds.ts";
import type { ModelInfo, ThinkMode } from "../core/types.ts";
import {
  normalizeStopReason,
  pump,
  toolCallEvent,
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
import type { ChatRequest, ModelSummary, Provider, StreamEvent } from "./types.ts";

export interface AnthropicProviderOptions {
  name?: string;
  /** Default https://api.anthropic.com (without /v1). */
  baseUrl?: string;
  apiKey?: string;
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  contextLength?: number;
  capabilities?: string[];
  /** Connect, first-token and idle limits (ms); unset ones default by locality (timeouts.ts). */
  timeouts?: Partial<Timeouts>;
}

type Json = Record<string, unknown>;
type Turn = { role: "user" | "assistant"; content: Json[] };

const ANTHROPIC = PROVIDER_KIND_TABLE.anthropic;

export const ANTHROPIC_VERSION = "2023-06-01";
const DEFAULT_MAX_TOKENS = 8192;

/** Thinking budget per mode; max_tokens is raised by the same amount so the answer keeps room. */
export const THINKING_BUDGET: Record<ThinkMode, number> = {
  off: 0,
  low: 2048,
  medium: 8192,
  high: 24576,
};

/**
 * Our conversation as Messages API turns: tool results become tool_result blocks in one user turn,
 * thinking is echoed with its signature (unsigned thinking from other providers is dropped,
 * since the API rejects it), and empty turns are left out.
 */
export function toAnthropicMessages(messages: Message[]): Turn[] {
  const out: Turn[] = [];
  const add = (role: Turn["role"], blocks: Json[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === "tool") {
      const block: Json = { type: "tool_result", tool_use_id: m.toolCallId ?? "" };
      if (m.content) block.content = m.content;
      if (m.isError) block.is_error = true;
      add("user", [block]);
    } else if (m.role === "assistant") {
      const blocks: Json[] = [];
      if (m.thinking && m.thinkingSignature) {
        blocks.push({ type: "thinking", thinking: m.thinking, signature: m.thinkingSignature });
      }
      if (m.content) blocks.push({ type: "text", text: m.content });
      for (const c of m.toolCalls ?? [])
        blocks.push({ type: "tool_use", id: c.id, name: c.name, input: c.arguments });
      add("assistant", blocks);
    } else if (m.content) {
      add("user", [{ type: "text", text: m.content }]);
    }
  }
  return out;
}

export function toAnthropicBody(req: ChatRequest): Json {
  const budget = THINKING_BUDGET[req.thinking ?? "off"];
  const body: Json = {
    model: req.model,
    max_tokens: (req.maxTokens ?? DEFAULT_MAX_TOKENS) + budget,
    stream: true,
    messages: toAnthropicMessages(req.messages),
  };
  if (req.system) body.system = req.system;
  if (req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.parameters,
    }));
  }
  if (budget > 0) body.thinking = { type: "enabled", budget_tokens: budget };
  // The API only accepts the default temperature together with thinking.
  else if (req.temperature !== undefined) body.temperature = req.temperature;
  return body;
}

interface Block {
  type: string;
  id: string;
  name: string;
  json: string;
}

/** Messages API events to StreamEvents; tool calls are emitted at their content_block_stop. */
class AnthropicDecoder implements StreamDecoder {
  private readonly sse = new SseDecoder();
  private readonly blocks = new Map<number, Block>();
  private inputTokens = 0;
  private outputTokens = 0;
  private stop: string | null = null;
  private toolCalls = 0;
  private finished = false;
  answering = false;
  private readonly ctx: ErrorContext;

  constructor(ctx: ErrorContext) {
    this.ctx = ctx;
  }

  push(text: string, out: StreamEvent[]): boolean {
    for (const ev of this.sse.push(text)) {
      this.event(ev.data, out);
      if (this.finished) return true;
    }
    return false;
  }

  end(out: StreamEvent[]): void {
    if (!this.finished) for (const ev of this.sse.end()) this.event(ev.data, out);
    if (!this.finished) throw truncatedStreamError(this.ctx);
    out.push({ type: "usage", inputTokens: this.inputTokens, outputTokens: this.outputTokens });
    out.push({ type: "done", stopReason: normalizeStopReason(this.stop, this.toolCalls > 0) });
  }

  private event(data: string, out: StreamEvent[]): void {
    let ev: Json;
    try {
      ev = JSON.parse(data) as Json;
    } catch {
      const message = `malformed stream event: ${data.slice(0, 120)}`;
      throw streamError(this.ctx, { error: { type: "api_error", message } });
    }
    // message_start and pings come before the model produces anything.
    if (ev.type !== "message_start" && ev.type !== "ping") this.answering = true;
    switch (ev.type) {
      case "content_block_delta":
        return this.delta(ev.index as number, ev.delta as Json, out);
      case "content_block_start":
        return this.start(ev.index as number, ev.content_block as Json, out);
      case "content_block_stop": {
        const b = this.blocks.get(ev.index as number);
        if (b?.type === "tool_use") {
          this.toolCalls++;
          out.push(toolCallEvent(b.id, b.name, b.json));
        }
        this.blocks.delete(ev.index as number);
        return;
      }
      case "message_start":
        return this.usage(((ev.message as Json | undefined)?.usage ?? {}) as Json);
      case "message_delta": {
        const d = ev.delta as Json | undefined;
        if (typeof d?.stop_reason === "string") this.stop = d.stop_reason;
        return this.usage((ev.usage ?? {}) as Json);
      }
      case "message_stop":
        this.finished = true;
        return;
      case "error":
        throw streamError(this.ctx, ev);
      default:
        return; // ping and future event types
    }
  }

  private delta(index: number, d: Json, out: StreamEvent[]): void {
    if (d.type === "text_delta") {
      if (typeof d.text === "string" && d.text) out.push({ type: "text", text: d.text });
    } else if (d.type === "thinking_delta") {
      if (typeof d.thinking === "string" && d.thinking)
        out.push({ type: "thinking", text: d.thinking });
    } else if (d.type === "input_json_delta") {
      const b = this.blocks.get(index);
      if (b && typeof d.partial_json === "string") b.json += d.partial_json;
    } else if (d.type === "signature_delta" && typeof d.signature === "string") {
      out.push({ type: "thinking_signature", signature: d.signature });
    }
  }

  private start(index: number, cb: Json, out: StreamEvent[]): void {
    const b: Block = {
      type: String(cb.type),
      id: String(cb.id ?? ""),
      name: String(cb.name ?? ""),
      json: "",
    };
    this.blocks.set(index, b);
    if (b.type === "text" && typeof cb.text === "string" && cb.text)
      out.push({ type: "text", text: cb.text });
    if (b.type === "thinking" && typeof cb.thinking === "string" && cb.thinking) {
      out.push({ type: "thinking", text: cb.thinking });
    }
    // A tool_use may arrive with its input whole and no deltas.
    if (b.type === "tool_use" && isNonEmptyObject(cb.input)) b.json = JSON.stringify(cb.input);
  }

  /** message_start has the prompt size; message_delta may repeat it and has the running output. */
  private usage(u: Json): void {
    // Cached prompt tokens are still prompt tokens for context accounting.
    const input =
      n(u.input_tokens) + n(u.cache_creation_input_tokens) + n(u.cache_read_input_tokens);
    if (input > 0) this.inputTokens = input;
    if (typeof u.output_tokens === "number") this.outputTokens = u.output_tokens;
  }
}

export function decodeAnthropicStream(
  chunks: AsyncIterable<string>,
  ctx: ErrorContext,
): AsyncGenerator<StreamEvent> {
  return pump(chunks, new AnthropicDecoder(ctx));
}

function isNonEmptyObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && Object.keys(v).length > 0;
}

function n(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

export class AnthropicProvider implements Provider {
  readonly name: string;
  readonly kind = "anthropic" as const;
  readonly baseUrl: string;
  private readonly opts: AnthropicProviderOptions;
  private readonly timeouts: Timeouts;

  constructor(opts: AnthropicProviderOptions = {}) {
    this.opts = opts;
    this.name = opts.name ?? "anthropic";
    this.baseUrl = trimBaseUrl(opts.baseUrl ?? ANTHROPIC.defaultUrl).replace(/\/v1$/, "");
    this.timeouts = resolveTimeouts(this.baseUrl, opts.timeouts);
  }

  private ctx(model?: string): ErrorContext {
    return providerErrorContext(
      this,
      this.opts,
      this.opts.apiKeyEnv ?? ANTHROPIC.key.variable,
      model,
    );
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = {
      ...this.opts.headers,
      "anthropic-version": ANTHROPIC_VERSION,
    };
    if (this.opts.apiKey) h["x-api-key"] = this.opts.apiKey;
    return h;
  }

  chat(req: ChatRequest): AsyncGenerator<StreamEvent> {
    const ctx = this.ctx(req.model);
    const open = () =>
      send(ctx, `${this.baseUrl}/v1/messages`, {
        headers: { ...this.headers(), accept: "text/event-stream" },
        body: toAnthropicBody(req),
        signal: req.signal,
        timeouts: this.timeouts,
      });
    return streamAnswer(ctx, open, new AnthropicDecoder(ctx), req.signal);
  }

  async listModels(signal?: AbortSignal): Promise<ModelSummary[]> {
    const body = (await requestJson(this.ctx(), `${this.baseUrl}/v1/models?limit=1000`, {
      headers: this.headers(),
      signal,
      timeoutMs: 10_000,
      timeouts: this.timeouts,
    })) as { data?: { id?: unknown }[] };
    return (body.data ?? [])
      .filter((m) => typeof m.id === "string")
      .map((m) => ({ name: m.id as string }));
  }

  /** No network: every current Claude model has a 200k window, tools, vision and thinking. */
  async modelInfo(model: string): Promise<ModelInfo> {
    return {
      name: model,
      family: "claude",
      parameterCount: 0,
      contextLength: this.opts.contextLength ?? 200_000,
      capabilities: this.opts.capabilities ?? ["tools", "vision", "thinking"],
    };
  }
}
