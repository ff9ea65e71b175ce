/**
 * How long a provider call may wait at each stage before it counts as stalled. Node's fetch
 * waits 300 s for headers and 300 s between body chunks; with retries a dead server held a turn
 * for about 20 minutes, so every chat call runs under these limits instead.
 */
import { isLocalUrl } from "./common.ts";
import type { TimeoutKind } from "./types.ts";

export interface Timeouts {
  /** DNS, TCP and TLS: until the connection is open. */
  connectMs: number;
  /** From the open connection to the first byte of the answer (headers and model loading). */
  firstTokenMs: number;
  /** The longest silence between two pieces of a streamed answer. */
  idleMs: number;
}

/**
 * A local server loads the model on the first request, which takes a minute or more for a large
 * model on a laptop (and prompt processing on a CPU can add more), so the first byte gets 300 s.
 */
export const LOCAL_TIMEOUTS: Timeouts = {
  connectMs: 10_000,
  firstTokenMs: 300_000,
  idleMs: 120_000,
};

/**
 * Cloud APIs answer with headers and start streaming within seconds (Anthropic sends events at
 * once and pings, OpenRouter sends keep-alive comments); two silent minutes means a stall.
 */
export const CLOUD_TIMEOUTS: Timeouts = {
  connectMs: 10_000,
  firstTokenMs: 120_000,
  idleMs: 120_000,
};

/** setTimeout fires at once for delays above 2^31-1 ms; no limit is ever that long anyway. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The limits for a server: its locality's defaults, with configured values winning. */
export function resolveTimeouts(baseUrl: string, configured: Partial<Timeouts> = {}): Timeouts {
  const base = isLocalUrl(baseUrl) ? LOCAL_TIMEOUTS : CLOUD_TIMEOUTS;
  const pick = (v: number | undefined, fallback: number) =>
    v !== undefined && Number.isFinite(v) && v > 0 ? Math.min(v, MAX_TIMEOUT_MS) : fallback;
  return {
    connectMs: pick(configured.connectMs, base.connectMs),
    firstTokenMs: pick(configured.firstTokenMs, base.firstTokenMs),
    idleMs: pick(configured.idleMs, base.idleMs),
  };
}

/** A limit fired (the transport's signal; errors.ts turns it into the user's message). */
export class StallTimeout extends Error {
  readonly kind: TimeoutKind;
  readonly ms: number;
  constructor(kind: TimeoutKind, ms: number) {
    super(`${kind} timeout after ${ms} ms`);
    this.name = "StallTimeout";
    this.kind = kind;
    this.ms = ms;
  }
}
