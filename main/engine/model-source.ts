/**
 * Where conversations get their model, kept current while the app runs: providers.yaml and the
 * stored keys are read again after Settings changes them (invalidate()), so a provider added in
 * the app is usable by the next conversation without a restart.
 */
import type { AgentConfig } from "../agents/definition.ts";
import type { ResolvedModel } from "../turn/state.ts";
import { configDir, type Homes } from "../config/homes.ts";
import type { SecretStore } from "../host/secrets.ts";
import {
  detectLocalServers,
  loadProvidersConfig,
  type DetectedServer,
  type ProvidersConfig,
  type ResolveFlags,
} from "../providers/index.ts";
import { secretsForEnv } from "../secrets/encrypted-file.ts";
import { modelsDir } from "../models/index.ts";
import { createModelResolver, type ModelResolver } from "./models.ts";

export interface ModelSourceOptions {
  homes: Homes;
  /** Whether the project's providers.yaml counts (workspace trust). */
  trustedProject: boolean;
  flags: ResolveFlags;
  /** The environment and the env file: they win over stored keys. */
  baseEnv: Record<string, string | undefined>;
  secrets?: SecretStore;
  /** How to find local servers (tests pass fixed ports); default: probe loopback. */
  detect?: () => Promise<DetectedServer[]>;
}

interface Built {
  resolver: ModelResolver;
  configs: ProvidersConfig;
  env: Record<string, string | undefined>;
}

export class ModelSource {
  readonly homes: Homes;
  readonly secrets: SecretStore | undefined;
  readonly #opts: ModelSourceOptions;
  #flags: ResolveFlags;
  #built: Promise<Built> | null = null;

  constructor(opts: ModelSourceOptions) {
    this.#opts = opts;
    this.homes = opts.homes;
    this.secrets = opts.secrets;
    this.#flags = opts.flags;
  }

  /** Where the embedded runtime's models are (and load from): `<global home>/models`. */
  get modelsDir(): string {
    return modelsDir(this.homes.global);
  }

  /** The global providers.yaml, the one Settings edits. */
  get providersFile(): string {
    return configDir(this.homes.global, "providers.yaml");
  }

  /** Command-line --provider/--model, until the user picks a default in the app. */
  get flags(): ResolveFlags {
    return this.#flags;
  }

  /** The provider environment: stored keys under the environment and the env file. */
  async env(): Promise<Record<string, string | undefined>> {
    return (await this.#current()).env;
  }

  async configs(): Promise<ProvidersConfig> {
    return (await this.#current()).configs;
  }

  /** The model an agent talks to (its own provider/model, else the default). */
  async resolve(agent: AgentConfig): Promise<ResolvedModel> {
    return (await this.#current()).resolver(agent);
  }

  /** A named provider and model, as a conversation's model picker chose them. */
  async resolveExact(agent: AgentConfig, provider: string, model: string): Promise<ResolvedModel> {
    return (await this.#current()).resolver({ ...agent, provider, model });
  }

  /** Local servers running now (probed again on every call: the user may just have started one). */
  detect(): Promise<DetectedServer[]> {
    return this.#opts.detect ? this.#opts.detect() : detectLocalServers({ timeoutMs: 500 });
  }

  /** The user chose a default in the app: it wins over the command line from now on. */
  chooseDefault(provider: string, model: string): void {
    this.#flags = { provider, model };
    this.invalidate();
  }

  /** providers.yaml or the stored keys changed: read them again on next use. */
  invalidate(): void {
    this.#built = null;
  }

  #current(): Promise<Built> {
    if (!this.#built) {
      const built = this.#build();
      // A broken file must not be remembered: the next call reads it again.
      built.catch(() => {
        if (this.#built === built) this.#built = null;
      });
      this.#built = built;
    }
    return this.#built;
  }

  async #build(): Promise<Built> {
    const env = { ...(await secretsForEnv(this.secrets)), ...this.#opts.baseEnv };
    const configs = await loadProvidersConfig({
      global: this.homes.global,
      project: this.#opts.trustedProject ? this.homes.project : undefined,
    });
    const resolver = createModelResolver({
      configs,
      flags: this.#flags,
      env,
      detect: this.#opts.detect,
      modelsDir: this.modelsDir,
    });
    return { resolver, configs, env };
  }
}
