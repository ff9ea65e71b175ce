/**
 * The context window a local model gets: what the user configured (or 16k), no more than the
 * model was trained on, and no more than this machine's memory holds beside the model. The
 * runtime fits once more against the memory free at load time and reports what it got.
 */
import { totalmem } from "node:os";
import type { ModelHeader } from "./model-file.ts";

/** Like Ollama's default here: enough for an agent's system prompt, tools and a long turn. */
export const DEFAULT_LOCAL_CONTEXT = 16_384;
const MIN_CONTEXT = 2048;
/** The share of the machine's memory the model and its cache may use together. */
const MEMORY_SHARE = 0.7;
/** Left for the app, the engine and the runtime process itself. */
const RESERVE_BYTES = 1024 ** 3;

/** KV cache bytes per token: keys and values, every layer, f16. */
export function kvBytesPerToken(h: ModelHeader): number {
  return 2 * h.layers * h.kvHeads * h.headDim * 2;
}

export function fitContextSize(h: ModelHeader, configured?: number, memory = totalmem()): number {
  const trained = h.trainContextLength || DEFAULT_LOCAL_CONTEXT;
  const cap = Math.min(trained, configured ?? DEFAULT_LOCAL_CONTEXT);
  const perToken = kvBytesPerToken(h);
  if (perToken <= 0) return Math.max(Math.min(MIN_CONTEXT, trained), cap);
  const budget = memory * MEMORY_SHARE - h.fileBytes - RESERVE_BYTES;
  const fits = Math.floor(budget / perToken / 256) * 256;
  return Math.max(Math.min(MIN_CONTEXT, cap), Math.min(cap, fits));
}

/** Bytes a model needs at the least (its weights and the smallest useful window), when more than `memory`. */
export function memoryShortfall(h: ModelHeader, memory = totalmem()): number | undefined {
  const need = h.fileBytes + kvBytesPerToken(h) * MIN_CONTEXT + RESERVE_BYTES;
  return need > memory ? need : undefined;
}
