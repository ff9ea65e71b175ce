/**
 * Will a model fit in this machine's memory, and with how large a context? The estimate is what
 * llama.cpp holds while it runs: the weights (about the file's size), the KV cache for the
 * context (f16 keys and values for every layer), and an allowance for compute buffers and the
 * runtime. The model manager shows the fit (memoryFit); the `local` provider sizes the window
 * it asks the runtime for (fitContextSize) and refuses a model that cannot load at all
 * (memoryShortfall). The runtime fits once more against the memory free at load time.
 */
import { totalmem } from "node:os";
import type { GgufInfo } from "./gguf-info.ts";

/** The context the estimate assumes when nobody says (the runtime may fit a different one). */
export const DEFAULT_CONTEXT_TOKENS = 8192;
const RUNTIME_OVERHEAD = 512 * 1024 * 1024;

/** Room left for the system and other programs: a model may use up to these shares of RAM. */
const FITS_SHARE = 0.6;
const TIGHT_SHARE = 0.85;

export type MemoryFit = "fits" | "tight" | "too-big";

/**
 * The memory models are planned for: the machine's RAM, or ISLET_TOTAL_MEMORY (bytes) to plan
 * for less (a shared machine; tests use it to stand for a small laptop).
 */
export function machineMemory(): number {
  const set = Number(process.env.ISLET_TOTAL_MEMORY);
  return Number.isFinite(set) && set > 0 ? set : totalmem();
}

/** Bytes of KV cache one token of context takes. */
export function kvBytesPerToken(info: GgufInfo): number {
  const headDimK = info.keyLength || (info.headCount ? info.embeddingLength / info.headCount : 0);
  const headDimV = info.valueLength || headDimK;
  return info.blockCount * info.headCountKv * (headDimK + headDimV) * 2;
}

/** Bytes the model needs loaded with a context of `contextTokens` (default: 8,192 or less). */
export function memoryNeeded(info: GgufInfo, contextTokens?: number): number {
  const context =
    contextTokens ?? Math.min(info.contextLength || DEFAULT_CONTEXT_TOKENS, DEFAULT_CONTEXT_TOKENS);
  return info.fileSize + kvBytesPerToken(info) * context + RUNTIME_OVERHEAD;
}

export function memoryFit(needed: number, total: number = machineMemory()): MemoryFit {
  if (needed <= total * FITS_SHARE) return "fits";
  if (needed <= total * TIGHT_SHARE) return "tight";
  return "too-big";
}

/** "2.1 GB": decimal gigabytes (as download sizes are shown), one decimal. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} kB`;
  return `${bytes} B`;
}

/** What a fit means, for a line in a list: "fits in 24 GB". */
export function describeFit(needed: number, total: number = machineMemory()): string {
  const fit = memoryFit(needed, total);
  const of = `${formatBytes(needed)} of ${formatBytes(total)}`;
  if (fit === "fits") return `fits (needs ${of})`;
  if (fit === "tight") return `tight (needs ${of}; close other programs)`;
  return `too big (needs ${of})`;
}

/** The window `local` asks for when providers.yaml does not say: enough for an agent's system
 * prompt, tools and a long turn (like Ollama's default here). */
export const DEFAULT_LOCAL_CONTEXT = 16_384;
/** Smallest useful window. */
const MIN_CONTEXT = 2048;
/** The share of the machine's memory the model and its cache may use together. */
const MEMORY_SHARE = 0.7;
/** Left for the app, the engine and the runtime process itself. */
const RESERVE_BYTES = 1024 ** 3;

/**
 * The context window a local model gets: what the user configured (or 16k), no more than the
 * model was trained on, and no more than this machine's memory holds beside the model.
 */
export function fitContextSize(info: GgufInfo, configured?: number, memory = totalmem()): number {
  const trained = info.contextLength || DEFAULT_LOCAL_CONTEXT;
  const cap = Math.min(trained, configured ?? DEFAULT_LOCAL_CONTEXT);
  const perToken = kvBytesPerToken(info);
  if (perToken <= 0) return Math.max(Math.min(MIN_CONTEXT, trained), cap);
  const budget = memory * MEMORY_SHARE - info.fileSize - RESERVE_BYTES;
  const fits = Math.floor(budget / perToken / 256) * 256;
  return Math.max(Math.min(MIN_CONTEXT, cap), Math.min(cap, fits));
}

/** Bytes a model needs at the least (its weights and the smallest useful window), when more than `memory`. */
export function memoryShortfall(info: GgufInfo, memory = totalmem()): number | undefined {
  const need = info.fileSize + kvBytesPerToken(info) * MIN_CONTEXT + RESERVE_BYTES;
  return need > memory ? need : undefined;
}
