/**
 * How each provider kind is built, on the rows of the kind table (main/core/provider-kinds.ts:
 * default URL, key variable). Keyed by kind, so a kind without a factory does not compile.
 */
import { providerKind } from "../core/provider-kinds.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { isLocalUrl } from "./common.ts";
import { ConfigError, type ProviderConfig } from "./config.ts";
import { LocalProvider } from "./local/index.ts";
import { OllamaProvider } from "./ollama.ts";
import { OpenAIProvider } from "./openai.ts";
import type { Timeouts } from "./timeouts.ts";
import type { Provider, ProviderKind } from "./types.ts";

/** What a kind that talks to a server is given: where it is, its key, headers and limits. */
export interface ServerOptions {
  name: string;
  /** The configured URL, else the kind's default; always set for kinds that require one. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Where the key comes from (for error advice), even when it is not set. */
  apiKeyEnv: string | undefined;
  headers?: Record<string, string>;
  contextLength?: number;
  capabilities?: string[];
  timeouts?: Partial<Timeouts>;
}

export interface KindFactory {
  /**
   * `server()` reads the URL and the key, throwing a ConfigError when the kind needs one that is
   * missing; a kind without a server (local) never calls it, so its config's key is not read.
   */
  create(c: ProviderConfig, given: { modelsDir: string; server(): ServerOptions }): Provider;
  /** Appended to "no model chosen": how to get a model of this kind. */
  noModelHint?: string;
}

export const PROVIDER_FACTORIES: Record<ProviderKind, KindFactory> = {
  ollama: {
    create: (_c, { server }) => new OllamaProvider(server()),
    noModelHint: " (or pull one: `ollama pull qwen3:8b`)",
  },
  "openai-compatible": {
    create: (_c, { server }) => {
      const s = server();
      return new OpenAIProvider({ ...s, baseUrl: s.baseUrl ?? "" });
    },
  },
  anthropic: { create: (_c, { server }) => new AnthropicProvider(server()) },
  local: {
    create: (c, { modelsDir }) =>
      new LocalProvider({
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
      }),
    noModelHint: " (or download one: `islet models pull NAME`)",
  },
};

/**
 * The variable a provider's key comes from: api_key_env, else its kind's conventional one, or
 * none needed. `baseUrl` is where it sends requests (the configured URL or the kind's default).
 */
export function keyVariable(
  c: Pick<ProviderConfig, "type" | "apiKeyEnv" | "baseUrl">,
): string | null {
  if (c.apiKeyEnv) return c.apiKeyEnv;
  const key = providerKind(c.type).key;
  if (!key) return null;
  // A cloud key is not sent to servers on this machine or LAN.
  if (key.remoteOnly && !(c.baseUrl && !isLocalUrl(c.baseUrl))) return null;
  return key.variable;
}

function where(c: ProviderConfig, field: string): string {
  return c.source ? `${c.source}: providers.${c.name}.${field}` : `--provider ${c.name}`;
}

function seconds(s: number | undefined): number | undefined {
  return s === undefined ? undefined : Math.round(s * 1000);
}

function serverOptions(c: ProviderConfig, env: Record<string, string | undefined>): ServerOptions {
  const kind = providerKind(c.type);
  const baseUrl = c.baseUrl ?? kind.defaultUrl ?? undefined;
  if (kind.urlRequired && !baseUrl) {
    throw new ConfigError(
      `${where(c, "base_url")}: ${c.type} needs a base URL (e.g. --base-url ${kind.urlRequired.example})`,
    );
  }
  const keyEnv = keyVariable({ type: c.type, apiKeyEnv: c.apiKeyEnv, baseUrl }) ?? undefined;
  const apiKey = keyEnv ? env[keyEnv] || undefined : undefined;
  if (c.apiKeyEnv && !apiKey) {
    throw new ConfigError(
      `${where(c, "api_key_env")}: ${c.apiKeyEnv} is not set in the environment (or the env file)`,
    );
  }
  if (kind.key?.required && !apiKey) {
    throw new ConfigError(
      `${c.name}: no API key — set ${kind.key.variable} (or api_key_env in providers.yaml)`,
    );
  }
  return {
    name: c.name,
    baseUrl,
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
  return PROVIDER_FACTORIES[c.type].create(c, { modelsDir, server: () => serverOptions(c, env) });
}
