/**
 * A context-window failure on a conversation's first message is not the conversation's fault:
 * the system prompt and the tools' descriptions alone do not fit. Saying "compact the
 * conversation" there sends people the wrong way, so the error says what does not fit and what
 * would make it fit.
 */
import type { ChatRequest } from "../providers/types.ts";
import { ProviderError } from "../providers/types.ts";
import { estimateMessage, estimateText, estimateTools } from "./tokens.ts";

export function promptTooLarge(
  error: ProviderError,
  request: ChatRequest,
  contextLength: number,
): ProviderError {
  const userTurns = request.messages.filter((m) => m.role === "user").length;
  if (error.errorType !== "context_exhausted" || userTurns > 1) return error;
  const system = estimateText(request.system);
  const tools = estimateTools(request.tools);
  const message = request.messages.reduce((n, m) => n + estimateMessage(m), 0);
  const window = contextLength > 0 ? `${contextLength}-token` : "";
  const text =
    `${request.model}'s ${window || "context"} window cannot hold this first message: the ` +
    `system prompt (~${system} tokens) and ${request.tools.length} tool descriptions ` +
    `(~${tools} tokens) come before it (~${message} tokens). Choose a model with a larger ` +
    "window or give it a larger context_length in providers.yaml, or offer fewer tools: " +
    "an agent with a shorter tools: list or a lower extensions_budget, fewer plugins or MCP " +
    "servers (--without-plugins to try)";
  return new ProviderError(text, error.errorType, error.statusCode, error.retryAfterMs, {
    cause: error,
  });
}
