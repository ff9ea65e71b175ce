/**
 * From configuration, flags, environment and detected local servers to one ready provider and
 * model. Precedence: flags > project config > global config > detected servers > the embedded
 * runtime. A user with Ollama running and no configuration gets its first model; a user with
 * nothing gets provider `local` and the first model in the models folder.
 */
import type { ModelInfo } from "../core/types.ts";
import { ModelFileError, pickLocalModel } from "../models/index.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { isLocalUrl } from "./common.ts";
import {
  ConfigError,
  mergeProvidersConfigs,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProvidersConfig,
} from "./config.ts";
import { detectLocalServers, type DetectedServer } from "./detect.ts";
import { defaultModelsDir, LocalProvider } from "./local/index.ts";
import { DEFAULT_OLLAMA_URL, OllamaProvider } from "./ollama.ts";
import { OpenAIProvider } from "./openai.ts";
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
  return (PROVIDER_KINDS as string[]).includes(name);
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

function where(c: ProviderConfig, field: string): string {
  return c.source ? `${c.source}: providers.${c.name}.${field}` : `--provider ${c.name}`;
}

function seconds(s: number | undefined): number | undefined {
  return s === undefined ? undefined : Math.round(s * 1000);
}

/**
 * Builds the provider for a config; the API key comes from the environment only. `modelsDir` is
 * the home's models folder (`modelsDir(homes.global)` from main/models): where `local` finds its
 * GGUF files. Required so that no caller falls back to another home's folder.
 */
export function createProvider(
  c: ProviderConfig,
  env: Record<string, string | undefined>,
  modelsDir: string,
): Provider {
  if (c.type === "local") {
    return new LocalProvider({
      name: c.name,
      modelsDir,
      contextLength: c.contextLength,
      toolSyntax: c.tools === "text" ? "text" : "auto",
      timeouts: c.timeouts && {
        firstTokenMs: seconds(c.timeouts.firstToken),
        idleMs: seconds(c.timeouts.idle),
      },
      runtimeOptions: {
        ...(c.unloadAfter !== undefined ? { unloadAfterMs: c.unloadAfter * 1000 } : {}),
        ...(c.threads !== undefined ? { threads: c.threads } : {}),
        ...(c.gpu === false ? { gpu: false as const } : {}),
      },
    });
  }
  const baseUrl =
    c.baseUrl ??
    (c.type === "ollama" ? DEFAULT_OLLAMA_URL : c.type === "anthropic" ? undefined : "");
  if (baseUrl === "") {
    throw new ConfigError(
      `${where(c, "base_url")}: openai-compatible needs a base URL (e.g. --base-url http://127.0.0.1:8080/v1)`,
    );
  }
  // Conventional key variables; OPENAI_API_KEY is not sent to servers on this machine or LAN.
  const conventional =
    c.type === "anthropic"
      ? "ANTHROPIC_API_KEY"
      : c.type === "openai-compatible" && !isLocalUrl(baseUrl ?? "")
        ? "OPENAI_API_KEY"
        : undefined;
  const keyEnv = c.apiKeyEnv ?? conventional;
  const apiKey = keyEnv ? env[keyEnv] || undefined : undefined;
  if (c.apiKeyEnv && !apiKey) {
    throw new ConfigError(
      `${where(c, "api_key_env")}: ${c.apiKeyEnv} is not set in the environment (or the env file)`,
    );
  }
  if (c.type === "anthropic" && !apiKey) {
    throw new ConfigError(
      `${c.name}: no API key — set ANTHROPIC_API_KEY (or api_key_env in providers.yaml)`,
    );
  }
  const common = {
    name: c.name,
    apiKey,
    apiKeyEnv: keyEnv,
    headers: c.headers,
    contextLength: c.contextLength,
    capabilities: c.capabilities,
    timeouts: c.timeouts && {
      connectMs: seconds(c.timeouts.connect),
      firstTokenMs: seconds(c.timeouts.firstToken),
      idleMs: seconds(c.timeouts.idle),
    },
  };
  if (c.type === "ollama") return new OllamaProvider({ ...common, baseUrl });
  if (c.type === "anthropic") return new AnthropicProvider({ ...common, baseUrl });
  return new OpenAIProvider({ ...common, baseUrl: baseUrl ?? "" });
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
  const pull =
    config.type === "ollama"
      ? " (or pull one: `ollama pull qwen3:8b`)"
      : config.type === "local"
        ? " (or download one: `islet models pull NAME`)"
        : "";
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
    if (err instanceof ModelFileError) throw new ConfigError(err.message);
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
