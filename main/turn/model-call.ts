/** One streamed provider call, turned into a response plus live events. */
import type { ChatRequest, Provider } from "../providers/types.ts";
import { ProviderError } from "../providers/types.ts";
import type { EventSink } from "./events.ts";
import type { ToolCallRequest } from "../core/message.ts";

export interface ModelResponse {
  content: string;
  thinking: string;
  thinkingSignature?: string;
  toolCalls: ToolCallRequest[];
  /** Calls the provider could not parse, by call id: answered with the error, never run. */
  invalidCalls: Map<string, string>;
  inputTokens: number;
  outputTokens: number;
  stopReason: string;
  /** The user stopped the call; content holds what streamed until then. */
  aborted: boolean;
}

export function emptyResponse(): ModelResponse {
  return {
    content: "",
    thinking: "",
    toolCalls: [],
    invalidCalls: new Map(),
    inputTokens: 0,
    outputTokens: 0,
    stopReason: "skipped",
    aborted: false,
  };
}

function isAbort(err: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (err instanceof Error && err.name === "AbortError");
}

/** Anything that is not already classified becomes an unclassified ProviderError. */
export function asProviderError(err: unknown, provider: Provider): ProviderError {
  if (err instanceof ProviderError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderError(`${provider.name}: ${message}`, "", 0, undefined, { cause: err });
}

export async function streamOnce(
  provider: Provider,
  req: ChatRequest,
  emit: EventSink,
): Promise<ModelResponse> {
  const res: ModelResponse = {
    content: "",
    thinking: "",
    toolCalls: [],
    invalidCalls: new Map(),
    inputTokens: 0,
    outputTokens: 0,
    stopReason: "",
    aborted: false,
  };
  try {
    for await (const ev of provider.chat(req)) {
      switch (ev.type) {
        case "text":
          res.content += ev.text;
          emit({ type: "assistant_delta", text: ev.text });
          break;
        case "thinking":
          res.thinking += ev.text;
          emit({ type: "thinking_delta", text: ev.text });
          break;
        case "thinking_signature":
          res.thinkingSignature = ev.signature;
          break;
        case "tool_call":
          res.toolCalls.push(ev.call);
          if (ev.error !== undefined) res.invalidCalls.set(ev.call.id, ev.error);
          break;
        case "usage":
          // Some servers send usage more than once; the last block is the complete one.
          res.inputTokens = ev.inputTokens;
          res.outputTokens = ev.outputTokens;
          break;
        case "done":
          res.stopReason = ev.stopReason;
          break;
      }
    }
  } catch (err) {
    if (isAbort(err, req.signal)) {
      res.aborted = true;
      res.stopReason = "aborted";
      return res;
    }
    throw asProviderError(err, provider);
  }
  if (req.signal?.aborted) {
    res.aborted = true;
    res.stopReason = "aborted";
  }
  return res;
}

/** Exponential backoff with full jitter, honouring a server's Retry-After when longer. */
export function backoffDelay(
  attempt: number,
  baseMs: number,
  maxMs: number,
  retryAfterMs?: number,
): number {
  const exp = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  const jittered = exp / 2 + Math.random() * (exp / 2);
  return Math.min(maxMs, Math.max(jittered, retryAfterMs ?? 0));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
