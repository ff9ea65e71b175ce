/**
 * The engine's core types: what a model is, what a conversation counts, how a call failed. The
 * engine, the bridge contract and the renderer use them; the plugin SDK (@islet/sdk) re-exports
 * them, so plugins see the same shapes field for field.
 */

export type Role = "user" | "assistant";

export interface TokenState {
  /** Client-side estimate: per-message sum + tool schema tokens. */
  estimate: number;
  /** API-reported input tokens from the last provider call. */
  lastApi: number;
  /** 0-100, based on estimate. */
  percent: number;
  /** Effective context window in tokens. */
  max: number;
}

export interface ModelInfo {
  name: string;
  family: string;
  parameterCount: number;
  contextLength: number;
  /** e.g. ["tools", "vision", "thinking"] */
  capabilities: string[];
}

export interface ToolCount {
  name: string;
  count: number;
}

export interface Stats {
  /** ISO timestamp. */
  startTime: string;
  /** Milliseconds since startTime. */
  duration: number;
  interactions: number;
  turns: number;
  iterations: number;
  tools: { calls: number; errors: number };
  parseRetries: number;
  compactions: number;
  tokens: { in: number; out: number };
  topTools: ToolCount[];
}

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  /** JSON-encoded args for reliable comparison. */
  argsJson: string;
  result: string;
  error: string;
  /** Wall-clock execution time in milliseconds. */
  duration: number;
}

export type ThinkMode = "off" | "low" | "medium" | "high";

export type ErrorType =
  | "rate_limit"
  | "auth"
  | "network"
  | "server"
  | "content_filter"
  | "credit_exhausted"
  | "model_unavailable"
  | "context_exhausted"
  | "";
