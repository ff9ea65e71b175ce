/**
 * The plugin runtime, the code plugins' extension source: loads every discovered plugin into its
 * own sandbox, contributes their hooks (as one HookRegistry), tools and commands through a
 * registrar — one scope per plugin, so unloading a plugin releases exactly what it registered —
 * and reloads them with an atomic swap: the running version serves until the new one is ready,
 * and a broken edit leaves the last good version running with the error reported.
 */
import type { HookHandler, HookRegistry, HookTiming } from "../../turn/hooks/types.ts";
import { HOOK_SOURCE_ORDER } from "../../contributions/hook-sources.ts";
import type { ContributionRegistrar, ScopedRegistrar } from "../../contributions/registrar.ts";
import type { Discovery, ExtensionSource } from "../../contributions/source.ts";
import type { SandboxBackendName } from "../../sandbox/types.ts";
import { buildPlugin, type Built } from "./build.ts";
import { pluginCommands } from "./commands.ts";
import { OnceTracker, pluginHandler, type ConditionCheck } from "./handlers.ts";
import { KnownNames } from "./known-names.ts";
import { firstLine, type LoadedPlugin } from "./loaded-plugin.ts";
import { OnDemandPlugins } from "./on-demand.ts";
import { mapConcurrent } from "./map-concurrent.ts";
import type { ContextFallback } from "./plugin-tool.ts";
import { contribute, globalFirst } from "./contribute.ts";
import type { PluginPort, PluginSpec } from "./port.ts";
import { formatProblem, type Problem } from "../../host/problem.ts";

interface Entry {
  spec: PluginSpec;
  plugin: LoadedPlugin;
  condition: ConditionCheck | null;
  /** Files the bundle read, for mapping watcher events to plugins. */
  inputs: string[];
  /** What this version registered (tool, command); disposed when it is swapped out or removed. */
  contributions: ScopedRegistrar | null;
  /** The last reload attempt failed; the previous version keeps serving. */
  reloadError?: string;
  /** The same failure whole (a bundle error's file, line and column). */
  reloadProblems?: Problem[];
}

const LOAD_CONCURRENCY = 4;

export interface ReloadReport {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
  /** What `error` is about, whole (file, line, column). */
  problems?: Problem[];
}

function failedReport(name: string, ms: number, plugin: LoadedPlugin): ReloadReport {
  return { name, ok: false, ms, error: plugin.error, problems: plugin.problems };
}

/** When the rebuild behind a report read the plugin's files (`performance.now()`). */
export interface ReportRead {
  readAt: number;
}

export interface RuntimeOptions {
  /** Plugin tools get it when run outside a turn. */
  contextFallback: ContextFallback;
  /** Signature and manifest warnings (stderr in the CLI, the log panel in the app). */
  warn(problem: Problem): void;
  onReload?(report: ReloadReport): void;
}

export class PluginRuntime implements HookRegistry, ExtensionSource<PluginSpec> {
  readonly id = "plugins";
  readonly port: PluginPort;
  readonly once = new OnceTracker();
  /** Discovery problems (bad manifests, duplicates) as of the last load. */
  problems: Problem[] = [];
  /** `activation: on-demand` plugins: found by each discovery, loaded only while activated. */
  readonly onDemand = new OnDemandPlugins({
    load: (spec) =>
      this.tracked(async () => this.install(spec, await buildPlugin(spec, this.port), false)),
    unload: (name) => this.remove(name),
    loaded: (name) => this.entries.get(name)?.plugin,
  });
  private readonly entries = new Map<string, Entry>();
  private readonly opts: RuntimeOptions;
  private handlerCache = new Map<HookTiming, HookHandler[]>();
  /** Everything this runtime contributed; null before load() and after dispose(). */
  private registrar: ScopedRegistrar | null = null;
  private disposed = false;
  private readonly knownTools: KnownNames;
  private readonly knownCommands: KnownNames;
  private readonly reportListeners = new Set<(report: ReloadReport, read: ReportRead) => void>();
  /** Loads and reloads under way: dispose waits for them, so none outlives the runtime. */
  private readonly underWay = new Set<Promise<unknown>>();

  constructor(port: PluginPort, opts: RuntimeOptions) {
    this.port = port;
    this.opts = opts;
    this.knownTools = new KnownNames(port.knownToolsFile ?? null);
    this.knownCommands = new KnownNames(port.knownCommandsFile ?? null);
  }

  /** The sandbox backend every plugin runs on, and why it was chosen. */
  get backend(): { name: SandboxBackendName; reason: string } {
    return { name: this.port.sandbox.backend, reason: this.port.sandboxReason };
  }

  /** The plugins on disk and the manifests that could not be read, without loading any. */
  async discover(): Promise<Discovery<PluginSpec>> {
    const { plugins, errors } = await this.port.discover();
    return { found: plugins, problems: errors };
  }

  /** Joins the engine: hooks, /plugins /reload /assert, then every plugin. */
  async load(registrar: ContributionRegistrar): Promise<void> {
    if (this.registrar || this.disposed)
      throw new Error("the plugin runtime was already loaded; create a new one to load again");
    this.registrar = registrar.scope();
    this.registrar.hooks(this, HOOK_SOURCE_ORDER.codePlugins);
    for (const command of pluginCommands(this)) this.registrar.command(command);
    await this.loadAll();
  }

  private tracked<R>(work: () => Promise<R>): Promise<R> {
    const running = work();
    this.underWay.add(running);
    const forget = () => this.underWay.delete(running);
    running.then(forget, forget);
    return running;
  }

  /** Discovers and loads every plugin (replacing whatever was loaded). */
  loadAll(): Promise<void> {
    return this.tracked(() => this.loadAllNow());
  }

  private async loadAllNow(): Promise<void> {
    const plugins = await this.discoverLoadable();
    for (const p of this.problems) this.opts.warn(p);
    for (const name of [...this.entries.keys()])
      if (!plugins.some((s) => s.name === name)) this.remove(name);
    // Builds overlap (esbuild runs in its own process, file reads are async); installs keep one
    // order (global, then alphabetical) so tool-name conflicts resolve the same way every time.
    const built = await mapConcurrent(plugins, LOAD_CONCURRENCY, (spec) =>
      buildPlugin(spec, this.port),
    );
    // Global plugins first: what they provide stays theirs (contribute.ts).
    for (const spec of globalFirst(plugins))
      await this.install(spec, built[plugins.indexOf(spec)], false);
    this.handlerCache.clear();
  }

  /** `/reload`: rediscovers and rebuilds every plugin. */
  reloadAll(): Promise<ReloadReport[]> {
    return this.tracked(() => this.reloadAllNow());
  }

  private async reloadAllNow(): Promise<ReloadReport[]> {
    const readAt = performance.now();
    const plugins = await this.discoverLoadable();
    const reports: ReloadReport[] = [];
    for (const name of [...this.entries.keys()])
      if (!plugins.some((s) => s.name === name)) this.remove(name);
    for (const spec of globalFirst(plugins)) reports.push(await this.rebuild(spec, readAt));
    this.handlerCache.clear();
    return reports;
  }

  /** Rediscovers and rebuilds the plugins whose files are among `changed` (hot reload). */
  reloadChanged(changed: readonly string[]): Promise<ReloadReport[]> {
    return this.tracked(() => this.reloadChangedNow(changed));
  }

  private async reloadChangedNow(changed: readonly string[]): Promise<ReloadReport[]> {
    const readAt = performance.now();
    const plugins = await this.discoverLoadable();
    const reports: ReloadReport[] = [];
    for (const name of [...this.entries.keys()])
      if (!plugins.some((s) => s.name === name)) this.remove(name);
    for (const spec of globalFirst(plugins)) {
      const entry = this.entries.get(spec.name);
      const touched = changed.some(
        (file) =>
          file.startsWith(spec.dir + "/") ||
          file === spec.dir ||
          (entry?.inputs.includes(file) ?? false),
      );
      if (!entry || touched) reports.push(await this.rebuild(spec, readAt));
    }
    this.handlerCache.clear();
    return reports;
  }

  /** Discovers; returns what is to be loaded (on-demand plugins only while activated). */
  private async discoverLoadable(): Promise<PluginSpec[]> {
    const { plugins, errors } = await this.port.discover();
    this.problems = errors;
    return this.onDemand.loadable(plugins);
  }

  private async rebuild(spec: PluginSpec, readAt: number): Promise<ReloadReport> {
    const started = performance.now();
    const current = this.entries.get(spec.name);
    const built = await buildPlugin(spec, this.port, current?.plugin.log);
    const ms = Math.round((performance.now() - started) * 10) / 10;
    let report: ReloadReport;
    if (built.plugin.status === "failed" && current && current.plugin.status === "active") {
      // Atomic swap, failure side: the last good version keeps serving.
      current.reloadError = built.plugin.error;
      current.reloadProblems = built.plugin.problems;
      report = failedReport(spec.name, ms, built.plugin);
    } else {
      await this.install(spec, built, true);
      const installed = this.entries.get(spec.name);
      report = !installed
        ? { name: spec.name, ok: false, ms, error: "the plugin runtime closed during the reload" }
        : installed.plugin.status === "failed"
          ? failedReport(spec.name, ms, installed.plugin)
          : { name: spec.name, ok: true, ms };
    }
    for (const w of built.plugin.warnings) this.opts.warn(w);
    this.opts.onReload?.(report);
    for (const listener of this.reportListeners) listener(report, { readAt });
    return report;
  }

  /** Puts a built plugin in place, swapping out (and disposing) the previous version. */
  private async install(spec: PluginSpec, built: Built, reloading: boolean): Promise<void> {
    if (this.disposed || !this.registrar) {
      // Unloaded while this version was building (engine closing): nothing may join.
      built.plugin.dispose();
      return;
    }
    const previous = this.entries.get(spec.name);
    previous?.contributions?.dispose();
    const contributions = this.registrar.scope();
    const entry: Entry = {
      spec,
      plugin: built.plugin,
      condition: built.condition,
      inputs: built.bundle?.inputs ?? [],
      contributions,
    };
    const exp = built.plugin.exports;
    const toolName = contribute({
      spec,
      built,
      contributions,
      installed: [...this.entries.values()],
      current: () => this.entries.get(spec.name)!.plugin,
      contextFallback: this.opts.contextFallback,
    });
    if (built.plugin.status === "active") {
      this.knownTools.remember(spec.name, toolName);
      this.knownCommands.remember(spec.name, exp.command?.name ?? null);
    }
    this.entries.set(spec.name, entry);
    previous?.plugin.dispose();
    if (!reloading) for (const w of built.plugin.warnings) this.opts.warn(w);
    this.handlerCache.clear();
  }

  private remove(name: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    entry.contributions?.dispose();
    entry.plugin.dispose();
    this.entries.delete(name);
    this.handlerCache.clear();
  }

  handlers<T extends HookTiming>(timing: T): readonly HookHandler<T>[] {
    let list = this.handlerCache.get(timing);
    if (!list) {
      list = [];
      for (const name of [...this.entries.keys()].sort()) {
        const entry = this.entries.get(name)!;
        if (entry.plugin.status === "disabled" || entry.plugin.status === "failed") continue;
        if (!entry.plugin.exports.hooks.includes(timing)) continue;
        list.push(
          pluginHandler({
            plugin: () => this.entries.get(name)!.plugin,
            timing,
            condition: entry.condition,
            once: entry.spec.once,
            onceTracker: this.once,
            pluginConfig: entry.spec.config,
            onSlow: (plugin, t, ms) => {
              const slow = {
                source: plugin,
                title: `${t} took ${ms} ms`,
                cause: "slow plugins delay every turn",
              };
              this.entries.get(plugin)?.plugin.log.write("warn", formatProblem(slow));
              this.opts.warn(slow);
            },
          }),
        );
      }
      this.handlerCache.set(timing, list);
    }
    return list as HookHandler<T>[];
  }

  /** Every rebuild's report as it happens (the editor awaits the one its save caused). */
  onReport(listener: (report: ReloadReport, read: ReportRead) => void): () => void {
    this.reportListeners.add(listener);
    return () => this.reportListeners.delete(listener);
  }

  get(
    name: string,
  ):
    | { spec: PluginSpec; plugin: LoadedPlugin; reloadError?: string; reloadProblems?: Problem[] }
    | undefined {
    const e = this.entries.get(name);
    return (
      e && {
        spec: e.spec,
        plugin: e.plugin,
        reloadError: e.reloadError,
        reloadProblems: e.reloadProblems,
      }
    );
  }

  /**
   * Why there is no tool `name` when a plugin that did not load could explain it, in one line:
   * `known` when that plugin provided it last time, else the plugins that failed before ever
   * telling us their tool. Undefined when no plugin explains it.
   */
  missingTool(name: string): { known: boolean; line: string } | undefined {
    const reason = (plugin: LoadedPlugin) => firstLine(plugin.error);
    const owner = this.knownTools.ownerOf(name);
    const owned = owner === undefined ? undefined : this.entries.get(owner);
    if (owner && owned && owned.plugin.status !== "active") {
      const state =
        owned.plugin.status === "disabled"
          ? "is disabled"
          : `failed to load: ${reason(owned.plugin)}`;
      return { known: true, line: `${name} is a tool of plugin ${owner}, which ${state}` };
    }
    const failed = [...this.entries.values()].filter(
      (e) => e.plugin.status === "failed" && !this.knownTools.knows(e.spec.name),
    );
    if (failed.length === 0) return undefined;
    const list = failed.map((e) => `${e.spec.name} failed to load (${reason(e.plugin)})`);
    const plural = failed.length === 1 ? "plugin" : "plugins";
    return { known: false, line: `${plural} ${list.join(", ")} and may provide it` };
  }

  /**
   * The slash commands of plugins that failed to load, as they last declared them (the plugin
   * cache remembers each plugin's command): the composer lists them, `/name` explains itself.
   */
  failedCommands(): { name: string; plugin: string; error: string }[] {
    const out: { name: string; plugin: string; error: string }[] = [];
    for (const [plugin, entry] of [...this.entries].sort(([a], [b]) => a.localeCompare(b))) {
      if (entry.plugin.status !== "failed") continue;
      const name = this.knownCommands.nameOf(plugin);
      if (name) out.push({ name, plugin, error: firstLine(entry.plugin.error) });
    }
    return out;
  }

  /** "/greet comes from greet-command, which failed: …" when a failed plugin explains `name`. */
  missingCommand(name: string): string | undefined {
    const failed = this.failedCommands().find((c) => c.name === name);
    return failed && `/${name} comes from ${failed.plugin}, which failed: ${failed.error}`;
  }

  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  condition(name: string): ConditionCheck | null {
    return this.entries.get(name)?.condition ?? null;
  }

  /** Restart an errored plugin (plugin browser button). */
  async restart(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no plugin named "${name}"`);
    await entry.plugin.restart();
    this.handlerCache.clear();
  }

  /** Unloads every plugin; the tools and commands they shadowed serve again. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const name of [...this.entries.keys()]) this.remove(name);
    // No isolate of ours outlives the runtime, and no load is left half done in the sandbox's
    // threads: loads under way finish (install disposes what they made, the runtime being
    // closed), then whatever the backend still runs.
    while (this.underWay.size > 0) await Promise.allSettled([...this.underWay]);
    await this.port.sandbox.settled?.();
    this.port.sandbox.releaseSpares?.();
    this.registrar?.dispose();
    this.registrar = null;
  }
}
