/** Anthropic Messages API: POST {baseUrl}/v1/messages with SSE streaming. */
import type { Message } from "../agent/message.ts";
import type { ModelInfo, ThinkMode } from "../../plugins/sdk/index.ts";
import { normalizeStopReason, toolCallEvent, trimBaseUrl } from "./common.ts";
import { streamError, truncatedStreamError, type ErrorContext } from "./errors.ts";
import { bodyText, requestJson, send, type FetchLike } from "./http.ts";
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
  fetch?: FetchLike;
}

type Json = Record<string, unknown>;
type Turn = { role: "user" | "assistant"; content: Json[] };

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
export async function* decodeAnthropicStream(
  chunks: AsyncIterable<string>,
  ctx: ErrorContext,
): AsyncGenerator<StreamEvent> {
  const sse = new SseDecoder();
  const blocks = new Map<number, Block>();
  let inputTokens = 0;
  let outputTokens = 0;
  let stop: string | null = null;
  let toolCalls = 0;
  let finished = false;

  const handle = function* (data: string): Generator<StreamEvent> {
    let ev: Json;
    try {
      ev = JSON.parse(data) as Json;
    } catch {
      throw streamError(ctx, {
        error: { type: "api_error", message: `malformed stream event: ${data.slice(0, 120)}` },
      });
    }
    switch (ev.type) {
      case "content_block_delta": {
        const d = ev.delta as Json;
        if (d.type === "text_delta") {
          if (typeof d.text === "string" && d.text) yield { type: "text", text: d.text };
        } else if (d.type === "thinking_delta") {
          if (typeof d.thinking === "string" && d.thinking)
            yield { type: "thinking", text: d.thinking };
        } else if (d.type === "input_json_delta") {
          const b = blocks.get(ev.index as number);
          if (b && typeof d.partial_json === "string") b.json += d.partial_json;
        } else if (d.type === "signature_delta" && typeof d.signature === "string") {
          yield { type: "thinking_signature", signature: d.signature };
        }
        return;
      }
      case "content_block_start": {
        const cb = ev.content_block as Json;
        const b: Block = {
          type: String(cb.type),
          id: String(cb.id ?? ""),
          name: String(cb.name ?? ""),
          json: "",
        };
        blocks.set(ev.index as number, b);
        if (b.type === "text" && typeof cb.text === "string" && cb.text)
          yield { type: "text", text: cb.text };
        if (b.type === "thinking" && typeof cb.thinking === "string" && cb.thinking) {
          yield { type: "thinking", text: cb.thinking };
        }
        // A tool_use may arrive with its input whole and no deltas.
        if (b.type === "tool_use" && cb.input && Object.keys(cb.input as Json).length > 0) {
          b.json = JSON.stringify(cb.input);
        }
        return;
      }
      case "content_block_stop": {
        const b = blocks.get(ev.index as number);
        if (b?.type === "tool_use") {
          toolCalls++;
          yield toolCallEvent(b.id, b.name, b.json);
        }
        blocks.delete(ev.index as number);
        return;
      }
      case "message_start": {
        const u = ((ev.message as Json | undefined)?.usage ?? {}) as Json;
        // Cached prompt tokens are still prompt tokens for context accounting.
        inputTokens =
          n(u.input_tokens) + n(u.cache_creation_input_tokens) + n(u.cache_read_input_tokens);
        outputTokens = n(u.output_tokens);
        return;
      }
      case "message_delta": {
        const d = ev.delta as Json | undefined;
        if (typeof d?.stop_reason === "string") stop = d.stop_reason;
        const u = (ev.usage ?? {}) as Json;
        if (typeof u.output_tokens === "number") outputTokens = u.output_tokens;
        if (typeof u.input_tokens === "number" && u.input_tokens > 0) {
          inputTokens =
            n(u.input_tokens) + n(u.cache_creation_input_tokens) + n(u.cache_read_input_tokens);
        }
        return;
      }
      case "message_stop":
        finished = true;
        return;
      case "error":
        throw streamError(ctx, ev);
      default:
        return; // ping and future event types
    }
  };

  outer: for await (const text of chunks) {
    for (const ev of sse.push(text)) {
      yield* handle(ev.data);
      if (finished) break outer;
    }
  }
  if (!finished) for (const ev of sse.end()) yield* handle(ev.data);
  if (!finished) throw truncatedStreamError(ctx);
  yield { type: "usage", inputTokens, outputTokens };
  yield { type: "done", stopReason: normalizeStopReason(stop, toolCalls > 0) };
}

function n(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

export class AnthropicProvider implements Provider {
  readonly name: string;
  readonly kind = "anthropic" as const;
  readonly baseUrl: string;
  private readonly opts: AnthropicProviderOptions;

  constructor(opts: AnthropicProviderOptions = {}) {
    this.opts = opts;
    this.name = opts.name ?? "anthropic";
    this.baseUrl = trimBaseUrl(opts.baseUrl ?? "https://api.anthropic.com").replace(/\/v1$/, "");
  }

  private ctx(model?: string): ErrorContext {
    return {
      provider: this.name,
      kind: this.kind,
      baseUrl: this.baseUrl,
      model,
      keyEnv: this.opts.apiKeyEnv ?? "ANTHROPIC_API_KEY",
      secrets: this.opts.apiKey ? [this.opts.apiKey] : [],
    };
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = {
      ...this.opts.headers,
      "anthropic-version": ANTHROPIC_VERSION,
    };
    if (this.opts.apiKey) h["x-api-key"] = this.opts.apiKey;
    return h;
  }

  async *chat(req: ChatRequest): AsyncGenerator<StreamEvent> {
    const ctx = this.ctx(req.model);
    const res = await send(ctx, `${this.baseUrl}/v1/messages`, {
      headers: { ...this.headers(), accept: "text/event-stream" },
      body: toAnthropicBody(req),
      signal: req.signal,
      fetch: this.opts.fetch,
    });
    yield* decodeAnthropicStream(bodyText(ctx, res.body, req.signal), ctx);
  }

  async listModels(signal?: AbortSignal): Promise<ModelSummary[]> {
    const body = (await requestJson(this.ctx(), `${this.baseUrl}/v1/models?limit=1000`, {
      headers: this.headers(),
      signal,
      timeoutMs: 10_000,
      fetch: this.opts.fetch,
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
