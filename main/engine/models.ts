/**
 * Which provider and model an agent talks to. The session default comes from flags, then
 * providers.yaml, then a detected local server; an agent that names its own provider or model
 * keeps it (that is what makes failover to another provider possible).
 */
import type { AgentConfig } from "../agents/definition.ts";
import type { ResolvedModel } from "../turn/state.ts";
import {
  detectLocalServers,
  resolveProvider,
  type DetectedServer,
  type ProvidersConfig,
  type ResolveFlags,
} from "../providers/index.ts";
import type { ModelInfo } from "../core/types.ts";

/** Window assumed when a server does not say (keeps the context meter and compaction working). */
export const FALLBACK_CONTEXT_LENGTH = 32_768;

export interface ModelResolverOptions {
  configs: ProvidersConfig;
  flags: ResolveFlags;
  env: Record<string, string | undefined>;
  /** How to find local servers (tests pass fixed ports). */
  detect?: () => Promise<DetectedServer[]>;
  /** Where the embedded runtime (`local`) finds GGUF models: `<global home>/models`. */
  modelsDir: string;
}

export type ModelResolver = (agent: AgentConfig) => Promise<ResolvedModel>;

export function agentFlags(agent: AgentConfig, flags: ResolveFlags): ResolveFlags {
  if (agent.provider) return { provider: agent.provider, model: agent.model };
  return { ...flags, model: agent.model ?? flags.model };
}

export function createModelResolver(opts: ModelResolverOptions): ModelResolver {
  const cache = new Map<string, Promise<ResolvedModel>>();
  // Local servers are probed at most once per engine, and only when something needs them.
  let detected: Promise<DetectedServer[]> | undefined;
  const detect = (): Promise<DetectedServer[]> =>
    (detected ??= opts.detect ? opts.detect() : detectLocalServers({ timeoutMs: 500 }));

  async function resolve(flags: ResolveFlags): Promise<ResolvedModel> {
    const r = await resolveProvider({
      configs: opts.configs,
      flags,
      env: opts.env,
      detected: detect,
      modelsDir: opts.modelsDir,
    });
    const reported: ModelInfo | undefined =
      r.modelInfo ?? (await r.provider.modelInfo(r.model).catch(() => undefined));
    const info: ModelInfo = {
      name: r.model,
      family: reported?.family ?? "",
      parameterCount: reported?.parameterCount ?? 0,
      contextLength: reported?.contextLength || r.config.contextLength || FALLBACK_CONTEXT_LENGTH,
      capabilities: reported?.capabilities ?? [],
    };
    const { extensionsBudget, hookContextBudget } = r.config;
    return {
      provider: r.provider,
      model: r.model,
      info,
      ...(extensionsBudget !== undefined ? { extensionsBudget } : {}),
      ...(hookContextBudget !== undefined ? { hookContextBudget } : {}),
    };
  }

  return (agent) => {
    const flags = agentFlags(agent, opts.flags);
    const key = JSON.stringify(flags);
    let hit = cache.get(key);
    if (!hit) {
      hit = resolve(flags);
      // A failure (server not up yet) must not be remembered.
      hit.catch(() => cache.delete(key));
      cache.set(key, hit);
    }
    return hit;
  };
}
