/** The model-provider layer's public surface: import from here outside main/providers/. */
export * from "./types.ts";
export { AnthropicProvider, type AnthropicProviderOptions } from "./anthropic.ts";
export { OllamaProvider, type OllamaProviderOptions } from "./ollama.ts";
export { OpenAIProvider, type OpenAIProviderOptions } from "./openai.ts";
export { withTextToolProtocol, renderToolPrompt, toTextProtocolMessages } from "./text-tools.ts";
export {
  detectLocalServers,
  DEFAULT_PORTS,
  type DetectedServer,
  type DetectOptions,
} from "./detect.ts";
export {
  ConfigError,
  loadProvidersConfig,
  loadProvidersFile,
  mergeProvidersConfigs,
  parseProvidersYaml,
  type ProviderConfig,
  type ProvidersConfig,
  type ToolMode,
} from "./config.ts";
export { PROVIDER_KINDS } from "../core/provider-kinds.ts";
export { createProvider, keyVariable } from "./kinds.ts";
export {
  resolveProvider,
  type ResolvedProvider,
  type ResolveFlags,
  type ResolveOptions,
} from "./resolve.ts";
export { classify, parseRetryAfter, type ErrorContext } from "./errors.ts";
export {
  LocalProvider,
  LocalRuntime,
  sharedRuntime,
  unloadSharedRuntime,
  type LocalProviderOptions,
  type LocalRuntimeOptions,
} from "./local/index.ts";
