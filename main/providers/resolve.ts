/**
 * From configuration, flags, environment and detected local servers to one ready provider and
 * model. Precedence: flags > project config > global config > detected servers > the embedded
 * runtime. A user with Ollama running and no configuration gets its first model; a user with
 * nothing gets provider `local` and the first model in the models folder.
 */
import { PROVIDER_KINDS } from "../core/provider-kinds.ts";
import type { ModelInfo } from "../core/types.ts";
import { ModelFileError, pickLocalModel } from "../models/index.ts";
import {
  ConfigError,
  mergeProvidersConfigs,
  type ProviderConfig,
  type ProvidersConfig,
} from "./config.ts";
import { detectLocalServers, type DetectedServer } from "./detect.ts";
import { createProvider, PROVIDER_FACTORIES } from "./kinds.ts";
import { defaultModelsDir } from "./local/index.ts";
import { withTextToolProtocol } from "./text-tools.ts";
import type { Provider, ProviderKind } from "./types.ts";

export interface ResolveFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
}

export interface ResolveOptions {
  /** Merged config, or several in precedence order (global, then project). */
  configs: ProvidersConfig | ProvidersConfig[];
  flags?: ResolveFlags;
  env?: Record<string, string | undefined>;
  /** Servers already detected, or how to detect them (default: probe loopback, 500 ms). */
  detected?: DetectedServer[] | (() => Promise<DetectedServer[]>);
  signal?: AbortSignal;
  /** Where `local` finds its GGUF files (`<global home>/models`). */
  modelsDir?: string;
}

type Merged = ResolveOptions & { configs: ProvidersConfig };

export interface ResolvedProvider {
  /** Ready to use; already wrapped with the text tool protocol when toolMode is "text". */
  provider: Provider;
  model: string;
  toolMode: "native" | "text";
  config: ProviderConfig;
  /** Present when resolving needed it (tool-mode "auto" on Ollama). */
  modelInfo?: ModelInfo;
}

function isKind(name: string): name is ProviderKind {
  return (PROVIDER_KINDS as readonly string[]).includes(name);
}

function guessKind(url: string): ProviderKind {
  if (/anthropic\.com/.test(url)) return "anthropic";
  if (/:11434(\/|$)/.test(url)) return "ollama";
  return "openai-compatible";
}

function fromFlags(name: string, kind: ProviderKind): ProviderConfig {
  return { name, type: kind, tools: "auto", source: "" };
}

/** What runs when nothing is configured or detected: the embedded llama.cpp runtime. */
export const EMBEDDED: ProviderConfig = { name: "local", type: "local", tools: "auto", source: "" };

function fromDetected(s: DetectedServer): ProviderConfig {
  return { name: s.id, type: s.kind, baseUrl: s.baseUrl, tools: "auto", source: "" };
}

class Detection {
  private result: Promise<DetectedServer[]> | undefined;
  private readonly source: ResolveOptions["detected"];
  constructor(source: ResolveOptions["detected"]) {
    this.source = source;
  }
  get(): Promise<DetectedServer[]> {
    if (!this.result) {
      const s = this.source;
      this.result = Array.isArray(s)
        ? Promise.resolve(s)
        : s
          ? s()
          : detectLocalServers({ timeoutMs: 500 });
    }
    return this.result;
  }
}

/** Which provider config applies, and the detected server it came from (if any). */
async function choose(
  opts: Merged,
  detection: Detection,
): Promise<[ProviderConfig, DetectedServer?]> {
  const { configs } = opts;
  const flags = opts.flags ?? {};
  const name = flags.provider ?? configs.default?.provider;
  if (name) {
    const configured = configs.providers[name];
    if (configured) return [configured];
    if (isKind(name)) return [fromFlags(name, name)];
    const server = (await detection.get()).find((s) => s.id === name);
    if (server) return [fromDetected(server), server];
    const known = Object.keys(configs.providers);
    const source = flags.provider ? "--provider" : `${configs.default?.source}: default.provider`;
    throw new ConfigError(
      `${source}: unknown provider "${name}" — ${known.length ? `configured: ${known.join(", ")}; ` : ""}or use one of ${PROVIDER_KINDS.filter((k) => k !== "local").join(", ")} with --base-url, or local (models in ~/.islet/models)`,
    );
  }
  const names = Object.keys(configs.providers);
  if (names.length === 1) return [configs.providers[names[0]]];
  if (names.length > 1) {
    const source = configs.providers[names[0]].source;
    throw new ConfigError(
      `${source}: default.provider: several providers are configured (${names.join(", ")}); set default.provider or pass --provider`,
    );
  }
  if (flags.baseUrl) {
    const kind = guessKind(flags.baseUrl);
    return [fromFlags(kind, kind)];
  }
  const servers = await detection.get();
  const server = servers.find((s) => s.models.length > 0) ?? servers[0];
  if (!server) return [EMBEDDED];
  return [fromDetected(server), server];
}

async function chooseModel(
  opts: Merged,
  config: ProviderConfig,
  provider: Provider,
  server: DetectedServer | undefined,
): Promise<string> {
  const flags = opts.flags ?? {};
  const fromDefault =
    opts.configs.default?.provider === config.name ? opts.configs.default.model : undefined;
  const direct = flags.model ?? fromDefault ?? config.model ?? server?.models[0]?.name;
  if (direct) return direct;
  const models = await provider.listModels(opts.signal).catch(() => []);
  if (models[0]) return models[0].name;
  const pull = PROVIDER_FACTORIES[config.type].noModelHint ?? "";
  throw new ConfigError(
    `${config.name}: no model chosen — pass --model or set default.model in providers.yaml${pull}`,
  );
}

async function chooseLocalModel(opts: Merged, config: ProviderConfig): Promise<string> {
  const fromDefault =
    opts.configs.default?.provider === config.name ? opts.configs.default.model : undefined;
  try {
    const dir = opts.modelsDir ?? defaultModelsDir(opts.env ?? {});
    return await pickLocalModel(dir, opts.flags?.model ?? fromDefault ?? config.model);
  } catch (err) {
    if (err instanceof ModelFileError) throw new ConfigError(err.message, err.remedy);
    throw err;
  }
}

export async function resolveProvider(options: ResolveOptions): Promise<ResolvedProvider> {
  const configs = Array.isArray(options.configs)
    ? mergeProvidersConfigs(...options.configs)
    : options.configs;
  const opts: Merged = { ...options, configs };
  const flags = opts.flags ?? {};
  const detection = new Detection(opts.detected);
  const [chosen, server] = await choose(opts, detection);
  const config: ProviderConfig = flags.baseUrl ? { ...chosen, baseUrl: flags.baseUrl } : chosen;
  // The embedded runtime's model is a file: pick it (or say what to pull) before starting anything.
  const localModel = config.type === "local" ? await chooseLocalModel(opts, config) : undefined;
  const native = createProvider(
    config,
    opts.env ?? {},
    opts.modelsDir ?? defaultModelsDir(opts.env ?? {}),
  );
  const model = localModel ?? (await chooseModel(opts, config, native, server));

  let toolMode: "native" | "text" = config.tools === "text" ? "text" : "native";
  let modelInfo: ModelInfo | undefined;
  if (config.tools === "auto") {
    if (config.type === "ollama") {
      // Unknown (server down, model missing) stays native: the chat call reports the real problem.
      modelInfo = await native.modelInfo(model, opts.signal).catch(() => undefined);
      if (modelInfo && !modelInfo.capabilities.includes("tools")) toolMode = "text";
    } else if (config.capabilities && !config.capabilities.includes("tools")) {
      toolMode = "text";
    }
  }
  // `local` applies its text protocol itself, with a grammar that keeps every call well-formed.
  const provider =
    toolMode === "text" && config.type !== "local" ? withTextToolProtocol(native) : native;
  return { provider, model, toolMode, config, ...(modelInfo ? { modelInfo } : {}) };
}
