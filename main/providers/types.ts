/** The provider contract: one streamed chat call, model listing and model info. */
import type { Message, ToolCallRequest } from "../core/message.ts";
import type { ProviderKind } from "../core/provider-kinds.ts";
import type { Remedy } from "../core/remedy.ts";
import type { ErrorType, ModelInfo, ThinkMode } from "../core/types.ts";

/** The stage that stalled, named as in providers.yaml (`timeouts: { connect, first_token, idle }`). */
export type TimeoutKind = "connect" | "first_token" | "idle";

/** The kinds are rows of one table (main/core/provider-kinds.ts). */
export type { ProviderKind };

/** A JSON Schema object as sent to models (always type "object" at the top). */
export type JsonSchema = {
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
} & Record<string, unknown>;

export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ChatRequest {
  model: string;
  /** Full system prompt for this call (agent prompt + fragments + appendSystem). */
  system: string;
  /** History without the system prompt. */
  messages: Message[];
  tools: ToolSpec[];
  signal?: AbortSignal;
  thinking?: ThinkMode;
  maxTokens?: number;
  temperature?: number;
}

export type StreamEvent =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string }
  /** Anthropic: signature for the thinking block, echoed back on the next request. */
  | { type: "thinking_signature"; signature: string }
  /**
   * A complete tool call, emitted once its argument deltas are assembled. `error` is set when the
   * model's call could not be read (arguments that are not a JSON object, a malformed text-protocol
   * block): `call.arguments` is then {} and `call.name` is the name if one could be read, else
   * INVALID_TOOL_NAME. The loop must not execute such a call; it answers it with `error` as the
   * tool's error result, so the model sees what went wrong and can call again.
   */
  | { type: "tool_call"; call: ToolCallRequest; error?: string }
  | { type: "usage"; inputTokens: number; outputTokens: number }
  | { type: "done"; stopReason: string };

/** Name of a tool call whose name could not be read (see the tool_call event's `error`). */
export const INVALID_TOOL_NAME = "__invalid__";

/**
 * done.stopReason is normalized across providers: "stop" (answer finished), "tool_calls" (the
 * answer asks for tools), "length" (hit max tokens), "content_filter" (cut by the provider's
 * filter); anything else is passed through as the server said it.
 */
export type StopReason = "stop" | "tool_calls" | "length" | "content_filter";

export interface ModelSummary {
  name: string;
  /** Bytes on disk where the server reports it (Ollama). */
  size?: number;
}

export interface Provider {
  /** Configured name (e.g. "ollama", "lmstudio", "work-openai"). */
  readonly name: string;
  readonly kind: ProviderKind;
  readonly baseUrl: string;
  chat(req: ChatRequest): AsyncIterable<StreamEvent>;
  listModels(signal?: AbortSignal): Promise<ModelSummary[]>;
  /** Best-effort model description; unknown fields stay zero/empty. */
  modelInfo(model: string, signal?: AbortSignal): Promise<ModelInfo>;
}

/** A classified provider failure (types as in the SDK's OnErrorContext). */
export class ProviderError extends Error {
  readonly errorType: ErrorType;
  readonly statusCode: number;
  /** Server-suggested delay (Retry-After), if any. */
  readonly retryAfterMs: number | undefined;
  /** Set when one of the provider's limits fired (connect, first_token, idle). */
  readonly timeout: TimeoutKind | undefined;
  /** What the app offers instead of the message's CLI advice (a model file missing: get one). */
  readonly remedy: Remedy | undefined;
  constructor(
    message: string,
    errorType: ErrorType,
    statusCode = 0,
    retryAfterMs?: number,
    options?: { cause?: unknown; timeout?: TimeoutKind; remedy?: Remedy },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.timeout = options?.timeout;
    this.remedy = options?.remedy;
    this.name = "ProviderError";
    this.errorType = errorType;
    this.statusCode = statusCode;
    this.retryAfterMs = retryAfterMs;
  }
  get retryable(): boolean {
    return isRetryable(this.errorType);
  }
}

export function isRetryable(errorType: ErrorType): boolean {
  return errorType === "rate_limit" || errorType === "server" || errorType === "network";
}
