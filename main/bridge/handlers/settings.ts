/**
 * `settings/*`: the Settings screen. Each change is written where the engine reads it (see
 * settings-view.ts) and announced to everyone (`settings/changed`). API keys go to the host's key
 * store, are named in providers.yaml by variable only, and never come back.
 */
import type { AppSettingsStore } from "../../config/app-settings.ts";
import { ProblemError } from "../../host/problem.ts";
import { editGlobalFeatures, readGlobalFeatures } from "../../code-plugins/loader/features-edit.ts";
import { removeProviderEntry, saveProviderEntry } from "../../providers/config-edit.ts";
import { keyVariable, loadProvidersFile, type ProviderConfig } from "../../providers/index.ts";
import type { ApprovalPolicy } from "../../tools/approval.ts";
import type { CallRequest } from "../contract.ts";
import { EVERYONE, type BridgeService, type CallHandlers } from "../service.ts";
import { configuredModels, modelSource, type ModelsPort } from "./models.ts";
import {
  settingsView,
  storedKeyName,
  type SettingsViewPort,
  type ViewDeps,
} from "./settings-view.ts";

type Names =
  | "settings/get"
  | "settings/set"
  | "settings/saveProvider"
  | "settings/removeProvider"
  | "settings/testProvider";

type Draft = Extract<CallRequest<"settings/testProvider">, { type: unknown }>;

/** The key variable a test of a draft uses, so a typed key never touches the real environment. */
const DRAFT_KEY = "ISLET_DRAFT_KEY";

/** What the Settings calls ask of the engine. */
export interface SettingsPort extends SettingsViewPort, Pick<ModelsPort, "models"> {
  readonly approvals: Pick<ApprovalPolicy, "remembered" | "remember" | "file" | "defaultRule">;
  /** The sandbox the plugins run in now; null with plugins off. */
  pluginBackend(): string | null;
}

export function settingsHandlers(
  port: SettingsPort,
  settings: AppSettingsStore,
  service: Pick<BridgeService, "emit">,
): Pick<CallHandlers, Names> {
  // The engine read features/plugins.yaml when it started: that is what runs until a restart.
  const startedUnsafe = readGlobalFeatures(port.globalHome).then(
    (f) => f.unsafe,
    () => false,
  );
  const view = async () => {
    const deps: ViewDeps = {
      port,
      source: modelSource(port, "settings"),
      settings,
      started: { runtime: port.pluginBackend(), unsafe: await startedUnsafe },
    };
    return settingsView(deps);
  };
  const changed = (section: "appearance" | "providers" | "approvals" | "plugins") =>
    service.emit(EVERYONE, "settings/changed", { section });

  /** The global file's own entry (Settings never edits the project's). */
  const globalEntry = async (name: string): Promise<ProviderConfig | undefined> => {
    const file = modelSource(port, "settings").providersFile;
    return (await loadProvidersFile(file))?.providers[name];
  };

  return {
    "settings/get": () => view(),

    "settings/set": async (request) => {
      if (request.theme) {
        await settings.update({ theme: request.theme });
        changed("appearance");
      }
      if (request.approvals) {
        const known = new Set(port.toolNames());
        for (const tool of Object.keys(request.approvals))
          if (!known.has(tool))
            throw new ProblemError({
              source: "settings/set",
              title: `approvals.${tool}: no such tool`,
              suggestion: `known tools: ${[...known].join(", ")}`,
            });
        for (const [tool, rule] of Object.entries(request.approvals))
          await port.approvals.remember(tool, rule);
        changed("approvals");
      }
      if (request.pluginRuntime !== undefined || request.unsafePlugins !== undefined) {
        await editGlobalFeatures(port.globalHome, {
          runtime: request.pluginRuntime,
          unsafe: request.unsafePlugins,
        });
        changed("plugins");
      }
      return view();
    },

    "settings/saveProvider": async (request) => {
      const source = modelSource(port, "settings/saveProvider");
      const previous = await globalEntry(request.previousName ?? request.name);
      let apiKeyEnv = previous?.apiKeyEnv;
      if (request.apiKey) {
        if (!source.secrets)
          throw new ProblemError({
            source: "settings/saveProvider",
            title: "apiKey: this system has no key store",
            suggestion: `set the key in the environment or secrets.env and name it here instead`,
          });
        // A key variable Settings created (or none yet) is Settings' to fill; a user's own
        // variable (OPENAI_API_KEY from the shell) is left alone: the stored one gets its own name.
        const name = storedKeyName(request.name);
        await source.secrets.set(name, request.apiKey);
        apiKeyEnv = name;
      } else if (request.clearKey && apiKeyEnv) {
        if (apiKeyEnv === storedKeyName(request.previousName ?? request.name))
          await source.secrets?.delete(apiKeyEnv);
        apiKeyEnv = undefined;
      }
      await saveProviderEntry(
        source.providersFile,
        request.name,
        {
          type: request.type,
          base_url: request.baseUrl || undefined,
          api_key_env: apiKeyEnv,
          model: request.model || undefined,
          ...(request.extensionsBudget !== undefined
            ? { extensions_budget: request.extensionsBudget ?? undefined }
            : {}),
          ...(request.hookContextBudget !== undefined
            ? { hook_context_budget: request.hookContextBudget ?? undefined }
            : {}),
        },
        request.previousName,
      );
      source.invalidate();
      changed("providers");
      return view();
    },

    "settings/removeProvider": async ({ name }) => {
      const source = modelSource(port, "settings/removeProvider");
      const entry = await globalEntry(name);
      if (!(await removeProviderEntry(source.providersFile, name)))
        throw new ProblemError({
          source: "settings/removeProvider",
          title: `providers.${name}: not in ${source.providersFile}`,
          suggestion: "a provider from the project's .islet/ is edited in that file",
        });
      if (entry?.apiKeyEnv === storedKeyName(name)) await source.secrets?.delete(entry.apiKeyEnv);
      source.invalidate();
      changed("providers");
      return view();
    },

    "settings/testProvider": async (request) => {
      const source = modelSource(port, "settings/testProvider");
      const env = { ...(await source.env()) };
      let config: ProviderConfig | undefined;
      if (!("type" in request)) {
        config = (await source.configs()).providers[request.name];
        if (!config)
          throw new ProblemError({
            source: "settings/testProvider",
            title: `no provider "${request.name}"`,
          });
      } else {
        config = draftConfig(request, await globalEntry(request.name), env);
      }
      const start = performance.now();
      const listed = await configuredModels(config, env, source.modelsDir);
      const ms = Math.round(performance.now() - start);
      const where = listed.baseUrl || config.type;
      return listed.error === null
        ? {
            ok: true,
            message: `Connected to ${where}: ${listed.models.length} model${listed.models.length === 1 ? "" : "s"}`,
            models: listed.models,
            ms,
          }
        : { ok: false, message: listed.error, models: [], ms };
    },
  };
}

/** A provider being edited, with the key just typed (or the one already stored for it). */
function draftConfig(
  draft: Draft,
  saved: ProviderConfig | undefined,
  env: Record<string, string | undefined>,
): ProviderConfig {
  const config: ProviderConfig = {
    name: draft.name,
    type: draft.type,
    baseUrl: draft.baseUrl || undefined,
    tools: "auto",
    source: "",
  };
  if (draft.apiKey) {
    env[DRAFT_KEY] = draft.apiKey;
    config.apiKeyEnv = DRAFT_KEY;
  } else if (saved?.apiKeyEnv) config.apiKeyEnv = saved.apiKeyEnv;
  else if (keyVariable(config) === null) delete config.apiKeyEnv;
  return config;
}
