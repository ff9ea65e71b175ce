/**
 * The code plugins whose plugin.yaml says `activation: on-demand`: every discovery finds them, but
 * the runtime loads one only while it is activated (main/extensions/activation/code-source.ts
 * activates them on the user's consent).
 */
import { firstLine, type LoadedPlugin } from "./loaded-plugin.ts";
import type { PluginSpec } from "./port.ts";

/** The runtime's side: how a plugin is loaded, unloaded and found. */
export interface OnDemandLoader {
  /** Builds `spec` and puts it in place (a plugin that fails to load is in place as failed). */
  load(spec: PluginSpec): Promise<void>;
  /** Unloads a plugin: its sandbox is disposed, its contributions released. */
  unload(name: string): void;
  /** The plugin in place under `name`, if any. */
  loaded(name: string): LoadedPlugin | undefined;
}

export class OnDemandPlugins {
  private specs = new Map<string, PluginSpec>();
  private readonly activated = new Set<string>();
  private readonly loader: OnDemandLoader;

  constructor(loader: OnDemandLoader) {
    this.loader = loader;
  }

  /**
   * Takes a discovery's plugins; returns those to load: every plugin but the on-demand ones not
   * activated (those are kept aside for `list()` and `activate()`).
   */
  loadable(plugins: readonly PluginSpec[]): PluginSpec[] {
    this.specs = new Map(plugins.filter((s) => s.onDemand).map((s) => [s.name, s]));
    for (const name of this.activated) if (!this.specs.has(name)) this.activated.delete(name);
    return plugins.filter((s) => !s.onDemand || this.activated.has(s.name));
  }

  /** The `activation: on-demand` plugins found by the last discovery, loaded or not. */
  list(): PluginSpec[] {
    return [...this.specs.values()];
  }

  /** Whether an on-demand plugin is loaded now. */
  isActivated(name: string): boolean {
    return this.activated.has(name) && this.loader.loaded(name) !== undefined;
  }

  /**
   * Loads one on-demand plugin: its hooks, tool and command serve from the next model call.
   * Rejects with the one-line load error (and leaves it unloaded) when it fails to load.
   */
  async activate(name: string): Promise<void> {
    const spec = this.specs.get(name);
    if (!spec) throw new Error(`no on-demand plugin named "${name}"`);
    if (this.isActivated(name)) return;
    this.activated.add(name);
    await this.loader.load(spec);
    const plugin = this.loader.loaded(name);
    if (!plugin || plugin.status === "failed") {
      this.deactivate(name);
      throw new Error(firstLine(plugin?.error ?? "it was unloaded while loading"));
    }
  }

  /** Unloads an on-demand plugin (its sandbox is disposed, its contributions released). */
  deactivate(name: string): void {
    this.activated.delete(name);
    this.loader.unload(name);
  }
}
