/**
 * Wires the plugin runtime to the real parts: features and discovery from the homes, esbuild
 * bundles cached in the global home, conditions, host capabilities, and the sandbox backend.
 */
import path from "node:path";
import type { Homes } from "../config/homes.ts";
import type { ContributionRegistrar } from "../contributions/registrar.ts";
import { createHostCapabilities } from "./capabilities/index.ts";
import { pluginDataDir } from "./capabilities/files.ts";
import { ConsentGate } from "./consent/gate.ts";
import type { EffectiveRights } from "./consent/requests.ts";
import { conditionCheck, runBashCondition } from "./conditions/index.ts";
import {
  bundlePlugin,
  bundleProblem,
  loadPlugins,
  pluginCacheDir,
  pluginConfigFor,
  sdkLoadError,
  type DiscoveredPlugin,
  type PluginFeatures,
  type PluginFlags,
} from "./loader/index.ts";
import type { ContextFallback } from "./runtime/plugin-tool.ts";
import { IDLE_RELEASE_MS } from "./runtime/loaded-plugin.ts";
import { BundleError, type PluginPort, type PluginSpec } from "./runtime/port.ts";
import { PluginRuntime, type ReloadReport } from "./runtime/runtime.ts";
import { ExportsCache } from "./runtime/exports-cache.ts";
import { createSandbox, DEFAULT_SANDBOX_BACKEND } from "../sandbox/backends.ts";
import { DEFAULT_LIMITS, type SandboxBackendName, type SandboxLimits } from "../sandbox/types.ts";
import type { Problem } from "../host/problem.ts";

/** Which sandbox backend runs the plugins, and one line on why (shown by the plugin browser). */
export interface ChosenBackend {
  name: SandboxBackendName;
  reason: string;
}

export interface PluginSetupOptions {
  homes: Homes;
  flags: PluginFlags;
  /** Process environment plus the env file; plugins see only their whitelist of it. */
  env: Record<string, string | undefined>;
  /** Where the plugins' hooks, tools and commands go (the engine's contributions). */
  registrar: ContributionRegistrar;
  contextFallback: ContextFallback;
  warn(problem: Problem): void;
  limits?: Partial<SandboxLimits>;
  /** How long a `stateless: true` plugin's isolate may sit unused before it is released. */
  idleReleaseMs?: number;
  /**
   * The host's own choice (SPEC §6): what runs when nobody chose a backend, and why. The desktop
   * app passes its probe's verdict; a host that picked QuickJS also refuses isolated-vm when asked.
   * Default: isolated-vm, the default under Node.
   */
  hostBackend?: ChosenBackend;
  onReload?(report: ReloadReport): void;
  /**
   * Grants the user gave (and the questions for what they did not yet answer). Default: what is
   * recorded in the global home, nobody to ask, the project not trusted.
   */
  consent?: ConsentGate;
  /** Env files (API keys) no plugin may read. */
  secretFiles?: string[];
}

/** Only the variables the user granted of those the plugin asked for; "*" means all. */
export function pluginEnv(
  names: ReadonlySet<string>,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env))
    if (v !== undefined && (names.has("*") || names.has(k))) out[k] = v;
  return out;
}

export const NODE_BACKEND: ChosenBackend = {
  name: DEFAULT_SANDBOX_BACKEND,
  reason: "isolated-vm is the default under Node",
};

/**
 * `plugins.runtime` in features/plugins.yaml or --plugin-runtime, else the host's choice. Where the
 * host settled on QuickJS (its probe found isolated-vm unsafe) nobody can ask for isolated-vm:
 * in the desktop app it would take the whole app down at the first typed array.
 */
export function chooseBackend(
  features: Pick<PluginFeatures, "runtime" | "runtimeSource">,
  host: ChosenBackend = NODE_BACKEND,
): ChosenBackend {
  if (features.runtime === "auto") return host;
  const source = features.runtimeSource ?? "configuration";
  if (features.runtime === "isolated-vm" && host.name === "quickjs")
    return { name: "quickjs", reason: `${source} asks for isolated-vm, but ${host.reason}` };
  return { name: features.runtime, reason: `chosen by ${source}` };
}

export async function createPluginRuntime(opts: PluginSetupOptions): Promise<PluginRuntime> {
  const { homes } = opts;
  const first = await loadPlugins(homes, opts.flags);
  let features = first.features;
  const discovered = new Map<string, DiscoveredPlugin>();
  let rights = new Map<string, EffectiveRights>();
  const consent =
    opts.consent ??
    new ConsentGate({ globalHome: homes.global, trustedProject: false, warn: opts.warn });
  const backend = chooseBackend(features, opts.hostBackend);
  const sandbox = createSandbox(backend.name);
  const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const cacheDir = pluginCacheDir(homes.global);
  let pending: Awaited<ReturnType<typeof loadPlugins>> | null = first;

  const toSpec = (p: DiscoveredPlugin): PluginSpec => ({
    name: p.name,
    dir: p.dir,
    entry: p.entry,
    manifestFile: p.manifestFile,
    source: p.source,
    description: p.manifest.description,
    disabled: p.status === "disabled",
    condition: p.manifest.condition?.source,
    once: p.manifest.once,
    override: p.manifest.override,
    overrideHeldBack:
      p.manifest.override && p.source === "project" && opts.flags.trustedProject !== true,
    optIn: p.manifest.optIn,
    config: pluginConfigFor(features, p),
    sdkProblem: p.sdk.status === "incompatible" ? sdkLoadError(p.name, p.manifest) : undefined,
    sdkStatus: p.sdk.status,
    warnings: p.warnings,
    // Asked for in plugin.yaml and granted by the user.
    allowWasm: rights.get(p.name)?.wasm ?? false,
    onDemand: p.manifest.activation === "on-demand",
    stateless: p.manifest.stateless,
  });

  const port: PluginPort = {
    async discover() {
      // The first discovery is the one made above; later ones (reloads) read the disk again.
      const load = pending ?? (await loadPlugins(homes, opts.flags));
      pending = null;
      features = load.features;
      for (const w of load.warnings) opts.warn(w);
      discovered.clear();
      const plugins = load.plugins.filter((p) => p.status !== "excluded");
      for (const p of plugins) discovered.set(p.name, p);
      rights = await consent.decide(plugins);
      return { plugins: plugins.map(toSpec), errors: load.errors };
    },
    async bundle(spec) {
      const result = await bundlePlugin({ entry: spec.entry, pluginDir: spec.dir, cacheDir });
      if (!result.ok) throw new BundleError(result.errors.map(bundleProblem));
      return { code: result.code, inputs: result.inputs };
    },
    condition: (text, workdir, spec) =>
      conditionCheck(text, {
        workdir,
        // A plugin's `bash:` runs a shell command on every hook call: only once the user granted it.
        runBash: async (cmd) => {
          if (!spec || rights.get(spec.name)?.bashCommands.has(cmd))
            return runBashCondition(cmd, workdir);
          return false;
        },
      }),
    capabilities(spec, log, execOutput) {
      const granted = rights.get(spec.name);
      return createHostCapabilities({
        plugin: spec.name,
        pluginDir: spec.dir,
        dataDir: pluginDataDir(homes.global, spec.name),
        workdir: homes.workdir,
        protected: {
          globalHome: homes.global,
          pluginDirs: features.dirs.map((d) => d.dir),
          secretFiles: opts.secretFiles ?? [],
        },
        env: pluginEnv(granted?.env ?? new Set(), opts.env),
        exec: features.unsafe && (granted?.exec ?? false),
        permissions: granted?.permissions ?? {},
        log: (level, text) => log.write(level, text),
        execOutput,
      });
    },
    sandbox,
    sandboxReason: backend.reason,
    limits,
    idleReleaseMs: opts.idleReleaseMs ?? IDLE_RELEASE_MS,
    toolConfig: { homeDir: homes.global, configDir: homes.project },
    workdir: homes.workdir,
    logFile: (name) => path.join(homes.global, "logs", "plugins", `${name}.log`),
    knownToolsFile: path.join(cacheDir, "tools.json"),
    knownCommandsFile: path.join(cacheDir, "commands.json"),
    exportsCache: new ExportsCache(path.join(cacheDir, "exports.json")),
    pluginDirs: () => features.dirs.map((d) => d.dir),
    permissions: (name) => consent.permissionsOf(name),
  };

  const runtime = new PluginRuntime(port, {
    contextFallback: opts.contextFallback,
    warn: opts.warn,
    onReload: opts.onReload,
  });
  // A plugin whose rights grew (the user granted its request) reloads with them.
  consent.onChanged = (dirs) => runtime.reloadChanged(dirs);
  await runtime.load(opts.registrar);
  return runtime;
}
