/** Ollama's native API: POST {baseUrl}/api/chat with NDJSON streaming, /api/tags, /api/show. */
import type { Message } from "../core/message.ts";
import { PROVIDER_KIND_TABLE } from "../core/provider-kinds.ts";
import type { ModelInfo, ThinkMode } from "../core/types.ts";
import {
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
import { requestJson, send, streamAnswer, type TimedResponse } from "./http.ts";
import { resolveTimeouts, type Timeouts } from "./timeouts.ts";
import { NdjsonDecoder, NdjsonParseError } from "./ndjson.ts";
import { ThinkTagSplitter } from "./think-tags.ts";
import {
  ProviderError,
  type ChatRequest,
  type ModelSummary,
  type Provider,
  type StreamEvent,
} from "./types.ts";

export interface OllamaProviderOptions {
  name?: string;
  /** Default http://127.0.0.1:11434. */
  baseUrl?: string;
  /** For Ollama behind an authenticating proxy: sent as Bearer. */
  apiKey?: string;
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  /** Sent as options.num_ctx: Ollama's default window is small and it truncates silently. */
  contextLength?: number;
  capabilities?: string[];
  /** Connect, first-token and idle limits (ms); unset ones default by locality (timeouts.ts). */
  timeouts?: Partial<Timeouts>;
}

type Json = Record<string, unknown>;

export const DEFAULT_OLLAMA_URL = PROVIDER_KIND_TABLE.ollama.defaultUrl;

/** num_ctx sent when neither providers.yaml nor the model's Modelfile sets one. */
export const DEFAULT_OLLAMA_WINDOW = 16_384;

export function toOllamaMessages(system: string, messages: Message[]): Json[] {
  const out: Json[] = [];
  if (system) out.push({ role: "system", content: system });
  for (const m of messages) {
    if (m.role === "tool") {
      out.push({ role: "tool", content: m.content, tool_name: m.toolName ?? "" });
      continue;
    }
    const msg: Json = { role: m.role, content: m.content };
    // gpt-oss needs its reasoning back to continue after a tool call; other templates drop it.
    if (m.role === "assistant" && m.thinking) msg.thinking = m.thinking;
    if (m.role === "assistant" && m.toolCalls?.length) {
      msg.tool_calls = m.toolCalls.map((c) => ({
        function: { name: c.name, arguments: c.arguments },
      }));
    }
    out.push(msg);
  }
  return out;
}

/** gpt-oss takes a level; other thinking models take a boolean. */
function thinkValue(mode: ThinkMode, model: string): boolean | string {
  if (/gpt-oss/i.test(model)) return mode === "off" ? "low" : mode;
  return mode !== "off";
}

export function toOllamaBody(req: ChatRequest, contextLength?: number): Json {
  const body: Json = {
    model: req.model,
    messages: toOllamaMessages(req.system, req.messages),
    stream: true,
  };
  if (req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  if (req.thinking) body.think = thinkValue(req.thinking, req.model);
  const options: Json = {};
  if (contextLength) options.num_ctx = contextLength;
  if (req.maxTokens !== undefined) options.num_predict = req.maxTokens;
  if (req.temperature !== undefined) options.temperature = req.temperature;
  if (Object.keys(options).length > 0) body.options = options;
  return body;
}

/** Ollama chat lines to StreamEvents. Tool calls come whole (object arguments), without ids. */
class OllamaDecoder implements StreamDecoder {
  private readonly ndjson = new NdjsonDecoder();
  private readonly think = new ThinkTagSplitter();
  private toolCalls = 0;
  private done: Json | undefined;
  /** Ollama sends nothing before the model produces its first token. */
  answering = false;
  private readonly ctx: ErrorContext;

  constructor(ctx: ErrorContext) {
    this.ctx = ctx;
  }

  push(text: string, out: StreamEvent[]): boolean {
    for (const value of this.lines(() => this.ndjson.push(text))) {
      this.line(value as Json, out);
      if (this.done) return true;
    }
    return false;
  }

  end(out: StreamEvent[]): void {
    if (!this.done)
      for (const value of this.lines(() => this.ndjson.end())) this.line(value as Json, out);
    const done = this.done;
    if (!done) throw truncatedStreamError(this.ctx);
    this.think.end(out);
    const inputTokens = typeof done.prompt_eval_count === "number" ? done.prompt_eval_count : 0;
    const outputTokens = typeof done.eval_count === "number" ? done.eval_count : 0;
    out.push({ type: "usage", inputTokens, outputTokens });
    const reason = typeof done.done_reason === "string" ? done.done_reason : undefined;
    out.push({ type: "done", stopReason: normalizeStopReason(reason, this.toolCalls > 0) });
  }

  private lines(parse: () => unknown[]): unknown[] {
    try {
      return parse();
    } catch (err) {
      if (!(err instanceof NdjsonParseError)) throw err;
      throw streamError(this.ctx, { error: `malformed stream line: ${err.line.slice(0, 120)}` });
    }
  }

  private line(obj: Json, out: StreamEvent[]): void {
    this.answering = true;
    if (obj.error !== undefined) throw streamError(this.ctx, obj);
    const m = obj.message as Json | undefined;
    if (m) {
      if (typeof m.thinking === "string" && m.thinking)
        out.push({ type: "thinking", text: m.thinking });
      if (typeof m.content === "string" && m.content) this.think.push(m.content, out);
      if (Array.isArray(m.tool_calls)) {
        for (const tc of m.tool_calls as Json[]) {
          const fn = (tc.function ?? {}) as Json;
          this.toolCalls++;
          out.push(
            toolCallEvent(
              typeof tc.id === "string" ? tc.id : "",
              String(fn.name ?? ""),
              fn.arguments,
            ),
          );
        }
      }
    }
    if (obj.done === true) this.done = obj;
  }
}

export function decodeOllamaStream(
  chunks: AsyncIterable<string>,
  ctx: ErrorContext,
): AsyncGenerator<StreamEvent> {
  return pump(chunks, new OllamaDecoder(ctx));
}

/** "8.0B" → 8e9, "270M" → 2.7e8. */
export function parseParameterSize(s: unknown): number {
  if (typeof s !== "string") return 0;
  const m = /^\s*([\d.]+)\s*([KMBT])?/i.exec(s);
  if (!m) return 0;
  const scale: Record<string, number> = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 };
  return Math.round(Number(m[1]) * (scale[(m[2] ?? "").toUpperCase()] ?? 1));
}

/** ModelInfo from an /api/show body. An explicit num_ctx parameter wins over the model's maximum. */
export function modelInfoFromShow(name: string, show: Json): ModelInfo {
  const details = (show.details ?? {}) as Json;
  const info = (show.model_info ?? {}) as Json;
  const arch = typeof info["general.architecture"] === "string" ? info["general.architecture"] : "";
  let contextLength = 0;
  const numCtx = /^num_ctx\s+(\d+)/m.exec(
    typeof show.parameters === "string" ? show.parameters : "",
  );
  if (numCtx) contextLength = Number(numCtx[1]);
  else if (typeof info[`${arch}.context_length`] === "number")
    contextLength = info[`${arch}.context_length`] as number;
  else {
    const key = Object.keys(info).find((k) => k.endsWith(".context_length"));
    if (key && typeof info[key] === "number") contextLength = info[key] as number;
  }
  const count = info["general.parameter_count"];
  let capabilities = Array.isArray(show.capabilities)
    ? show.capabilities.filter((c) => typeof c === "string")
    : [];
  // Ollama before 0.6 has no capabilities list: a template that renders .Tools takes tools.
  if (
    !Array.isArray(show.capabilities) &&
    typeof show.template === "string" &&
    show.template.includes(".Tools")
  ) {
    capabilities = ["completion", "tools"];
  }
  return {
    name,
    family: typeof details.family === "string" ? details.family : arch,
    parameterCount:
      typeof count === "number" && count > 0 ? count : parseParameterSize(details.parameter_size),
    contextLength,
    capabilities,
  };
}

export class OllamaProvider implements Provider {
  readonly name: string;
  readonly kind = "ollama" as const;
  readonly baseUrl: string;
  private readonly opts: OllamaProviderOptions;
  private readonly timeouts: Timeouts;
  /** Effective window per model, learned from /api/show. */
  private readonly windows = new Map<string, number>();

  constructor(opts: OllamaProviderOptions = {}) {
    this.opts = opts;
    this.name = opts.name ?? "ollama";
    this.baseUrl = trimBaseUrl(opts.baseUrl ?? DEFAULT_OLLAMA_URL);
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
    return streamAnswer(ctx, () => this.open(req, ctx), new OllamaDecoder(ctx), req.signal);
  }

  private async open(req: ChatRequest, ctx: ErrorContext): Promise<TimedResponse> {
    const window = this.opts.contextLength ?? this.windows.get(req.model) ?? DEFAULT_OLLAMA_WINDOW;
    const body = toOllamaBody(req, window);
    const post = (b: Json) =>
      send(ctx, `${this.baseUrl}/api/chat`, {
        headers: this.headers(),
        body: b,
        signal: req.signal,
        timeouts: this.timeouts,
      });
    try {
      return await post(body);
    } catch (err) {
      // Asking a model without thinking to think is a 400; answering without it beats failing.
      if (!(
        err instanceof ProviderError &&
        err.statusCode === 400 &&
        /support thinking/i.test(err.message)
      ))
        throw err;
      delete body.think;
      return await post(body);
    }
  }

  async listModels(signal?: AbortSignal): Promise<ModelSummary[]> {
    const body = (await requestJson(this.ctx(), `${this.baseUrl}/api/tags`, {
      headers: this.headers(),
      signal,
      timeoutMs: 10_000,
      timeouts: this.timeouts,
    })) as { models?: { name?: unknown; size?: unknown }[] };
    return (body.models ?? [])
      .filter((m) => typeof m.name === "string")
      .map((m) =>
        typeof m.size === "number"
          ? { name: m.name as string, size: m.size }
          : { name: m.name as string },
      );
  }

  async modelInfo(model: string, signal?: AbortSignal): Promise<ModelInfo> {
    const show = (await requestJson(this.ctx(model), `${this.baseUrl}/api/show`, {
      headers: this.headers(),
      body: { model },
      signal,
      timeoutMs: 10_000,
      timeouts: this.timeouts,
    })) as Json;
    const info = modelInfoFromShow(model, show);
    if (this.opts.contextLength) info.contextLength = this.opts.contextLength;
    else if (!/^num_ctx\s/m.test(String(show.parameters ?? ""))) {
      // Without num_ctx Ollama runs a small default window and silently drops the start of long
      // prompts; ask for the model's window, capped so memory use stays sane on a laptop.
      info.contextLength = Math.min(
        info.contextLength || DEFAULT_OLLAMA_WINDOW,
        DEFAULT_OLLAMA_WINDOW,
      );
    }
    this.windows.set(model, info.contextLength);
    if (this.opts.capabilities) info.capabilities = [...this.opts.capabilities];
    return info;
  }
}
