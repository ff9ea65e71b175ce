/**
 * Finds model servers running on this machine: Ollama (11434), LM Studio (1234) and llama.cpp
 * server (8080), probed in parallel with a short timeout. Only loopback is probed.
 */
import type { ModelSummary, ProviderKind } from "./types.ts";

/** Probes use fetch with a whole-request limit; tests may pass their own. */
export type FetchLike = typeof fetch;

export type LocalServerId = "ollama" | "lmstudio" | "llamacpp";

export interface DetectedServer {
  /** Also usable as a provider name (`--provider lmstudio`). */
  id: LocalServerId;
  kind: ProviderKind;
  /** Base URL for the provider (OpenAI-compatible ones include /v1). */
  baseUrl: string;
  models: ModelSummary[];
}

export interface DetectOptions {
  /** Per probe; default 500 ms. */
  timeoutMs?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Port overrides per server (tests, non-default setups). */
  ports?: Partial<Record<LocalServerId, number>>;
  signal?: AbortSignal;
  fetch?: FetchLike;
}

export const DEFAULT_PORTS: Record<LocalServerId, number> = {
  ollama: 11434,
  lmstudio: 1234,
  llamacpp: 8080,
};

/** Detection order is also preference order when nothing is configured. */
const ORDER: LocalServerId[] = ["ollama", "lmstudio", "llamacpp"];

type Getter = (url: string) => Promise<unknown>;

function getter(opts: DetectOptions): Getter {
  const timeout = opts.timeoutMs ?? 500;
  const fetchFn = opts.fetch ?? fetch;
  return async (url) => {
    const signals = [AbortSignal.timeout(timeout), ...(opts.signal ? [opts.signal] : [])];
    const res = await fetchFn(url, { signal: AbortSignal.any(signals) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.json();
  };
}

function openAIModels(body: unknown): ModelSummary[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  return data
    .map((m) => (m as { id?: unknown }).id)
    .filter((id): id is string => typeof id === "string")
    .map((name) => ({ name }));
}

async function probe(
  id: LocalServerId,
  origin: string,
  get: Getter,
): Promise<DetectedServer | undefined> {
  if (id === "ollama") {
    const body = (await get(`${origin}/api/tags`)) as { models?: unknown } | null;
    if (!Array.isArray(body?.models)) return undefined;
    const models = (body.models as { name?: unknown; size?: unknown }[])
      .filter((m) => typeof m.name === "string")
      .map((m) =>
        typeof m.size === "number"
          ? { name: m.name as string, size: m.size }
          : { name: m.name as string },
      );
    return { id, kind: "ollama", baseUrl: origin, models };
  }
  let models = openAIModels(await get(`${origin}/v1/models`).catch(() => undefined));
  if (!models && id === "llamacpp") {
    // An older llama.cpp server without /v1/models still answers /health.
    const health = (await get(`${origin}/health`)) as { status?: unknown } | null;
    if (health?.status === "ok") models = [];
  }
  return models ? { id, kind: "openai-compatible", baseUrl: `${origin}/v1`, models } : undefined;
}

/** The servers that answered, in the order ollama, lmstudio, llamacpp. Never throws. */
export async function detectLocalServers(opts: DetectOptions = {}): Promise<DetectedServer[]> {
  const host = opts.host ?? "127.0.0.1";
  const get = getter(opts);
  const found = await Promise.all(
    ORDER.map((id) => {
      const origin = `http://${host}:${opts.ports?.[id] ?? DEFAULT_PORTS[id]}`;
      return probe(id, origin, get).catch(() => undefined);
    }),
  );
  return found.filter((s): s is DetectedServer => s !== undefined);
}
