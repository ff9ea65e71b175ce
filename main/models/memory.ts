/**
 * Will a model fit in this machine's memory? The estimate is what llama.cpp holds while it
 * runs: the weights (about the file's size), the KV cache for the context (f16 keys and
 * values for every layer), and a fixed allowance for compute buffers and the runtime.
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
