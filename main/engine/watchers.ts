/**
 * The engine's file watchers (the app and `islet serve`; one-shot runs need none): the plugins
 * folders of the current plugin runtime, and the homes' commands, skills, agents, shell hooks
 * and trust record.
 */
import { watchHomes, type HomeReloads } from "../extensions/watch-homes.ts";
import type { Homes } from "../config/homes.ts";
import type { PluginRuntime, ReloadReport } from "../code-plugins/runtime/runtime.ts";
import { watchPlugins, type PluginWatcher } from "../code-plugins/runtime/watch.ts";
import type { Problem } from "../host/problem.ts";

export class EngineWatchers {
  private plugins: PluginWatcher | null = null;
  private homes: PluginWatcher | null = null;
  /** The host's hot-reload listener, kept so a new plugin runtime is watched the same way. */
  private listener: ((reports: ReloadReport[]) => void) | null = null;
  private readonly opts: {
    warn(problem: Problem): void;
    /** The engine's own follow-ups to a plugin reload, before the host's listener. */
    afterPluginReload(reports: ReloadReport[]): void;
  };

  constructor(opts: EngineWatchers["opts"]) {
    this.opts = opts;
  }

  get watchingPlugins(): boolean {
    return this.plugins !== null;
  }

  /** Stops following a runtime about to be replaced; true when it was followed. */
  async detachPlugins(): Promise<boolean> {
    const was = this.plugins !== null;
    await this.plugins?.close();
    this.plugins = null;
    return was;
  }

  /** Watches `runtime`'s folders; `onReload` (kept for later runtimes) hears each reload. */
  async watchPlugins(
    runtime: PluginRuntime,
    onReload: ((reports: ReloadReport[]) => void) | null = this.listener,
  ): Promise<void> {
    if (this.plugins) return;
    this.listener = onReload;
    this.plugins = watchPlugins(runtime, {
      onReload: (reports) => {
        this.opts.afterPluginReload(reports);
        this.listener?.(reports);
      },
      onError: (e) => this.opts.warn({ source: "plugin watcher", title: e.message }),
    });
    await this.plugins.ready;
  }

  async watchHomes(homes: Homes, handlers: Omit<HomeReloads, "onError">): Promise<void> {
    if (this.homes) return;
    this.homes = watchHomes(homes, {
      ...handlers,
      onError: (e) => this.opts.warn({ source: "home watcher", title: e.message }),
    });
    await this.homes.ready;
  }

  async close(): Promise<void> {
    await this.detachPlugins();
    await this.homes?.close();
    this.homes = null;
  }
}
