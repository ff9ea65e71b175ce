/**
 * What the Settings screen shows, read from where each setting lives: the app settings file
 * (theme), providers.yaml (providers, default model), the key store (only whether a key is set),
 * approvals.json (tool rules in this workspace) and features/plugins.yaml (sandbox, unsafe mode).
 */
import type { AppSettingsStore } from "../../config/app-settings.ts";
import type { ModelSource } from "../../engine/model-source.ts";
import { readGlobalFeatures } from "../../code-plugins/loader/features-edit.ts";
import { keyVariable, type ProvidersConfig } from "../../providers/index.ts";
import type { ApprovalPolicy } from "../../tools/approval.ts";
import type { ProviderView, SettingsView } from "../schemas/settings.ts";

/** Where Settings stores a provider's key: ISLET_KEY_<NAME>. */
export function storedKeyName(provider: string): string {
  return `ISLET_KEY_${provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/** What the Settings screen reads of the engine. */
export interface SettingsViewPort {
  readonly globalHome: string;
  readonly workdir: string;
  /** The tool rules remembered for this workspace, their file, and each tool's default. */
  readonly approvals: Pick<ApprovalPolicy, "remembered" | "file" | "defaultRule">;
  toolNames(): string[];
  hasAgent(name: string): boolean;
}

export interface ViewDeps {
  port: SettingsViewPort;
  source: ModelSource;
  settings: AppSettingsStore;
  /** What the engine started with (features are read at start). */
  started: { runtime: string | null; unsafe: boolean };
}

async function providerViews(deps: ViewDeps, configs: ProvidersConfig): Promise<ProviderView[]> {
  const stored = new Set((await deps.source.secrets?.names().catch(() => [])) ?? []);
  const env = await deps.source.env().catch(() => ({}) as Record<string, string | undefined>);
  return Object.values(configs.providers).map((c) => {
    const variable = keyVariable(c);
    const keySource =
      variable === null
        ? null
        : stored.has(variable)
          ? "stored"
          : env[variable]
            ? "environment"
            : null;
    return {
      name: c.name,
      type: c.type,
      baseUrl: c.baseUrl ?? null,
      model: c.model ?? null,
      apiKeyEnv: c.apiKeyEnv ?? null,
      extensionsBudget: c.extensionsBudget ?? null,
      hookContextBudget: c.hookContextBudget ?? null,
      key: variable === null ? "not needed" : keySource ? "set" : "not set",
      keySource,
      source: c.source === deps.source.providersFile ? "global" : "project",
    };
  });
}

export async function settingsView(deps: ViewDeps): Promise<SettingsView> {
  const { port, source } = deps;
  const app = await deps.settings.read();
  let configs: ProvidersConfig = { providers: {} };
  let providersError: string | null = null;
  try {
    configs = await source.configs();
  } catch (err) {
    providersError = (err as Error).message;
  }
  const remembered = await port.approvals.remembered();
  const tools = port.toolNames().map((tool) => {
    const defaultRule = port.approvals.defaultRule(tool);
    return { tool, rule: remembered[tool] ?? defaultRule, defaultRule };
  });
  const features = await readGlobalFeatures(port.globalHome);
  const flags = source.flags;
  const defaultModel =
    flags.provider && flags.model
      ? { provider: flags.provider, model: flags.model }
      : configs.default?.model
        ? { provider: configs.default.provider, model: configs.default.model }
        : null;
  return {
    theme: app.theme,
    defaultModel,
    defaultAgent: port.hasAgent(app.defaultAgent) ? app.defaultAgent : "default",
    providers: await providerViews(deps, configs),
    providersError,
    providersFile: source.providersFile,
    keys: source.secrets
      ? { available: true, protection: source.secrets.protection }
      : {
          available: false,
          protection:
            "no key store on this system: set keys in the environment or secrets.env instead",
        },
    approvals: { workdir: port.workdir, file: port.approvals.file, tools },
    plugins: {
      runtime: features.runtime,
      unsafe: features.unsafe,
      active: deps.started,
      file: features.file,
    },
    file: deps.settings.file,
  };
}
