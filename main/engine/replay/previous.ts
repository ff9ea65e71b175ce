/**
 * The version of each plugin that served before the editor's latest save, kept as its bundle so
 * a replay can run it beside the new one. Captured just before a save overwrites the files; a
 * version that did not build is not kept (the last good one stays).
 */
import type { PluginRuntime } from "../../code-plugins/runtime/runtime.ts";
import type { BundleOutput } from "../../code-plugins/runtime/port.ts";

export class PreviousVersions {
  private readonly bundles = new Map<string, BundleOutput>();

  /** Call before writing plugin `name`'s files. Never throws: a save must not fail for this. */
  async capture(runtime: PluginRuntime, name: string): Promise<void> {
    const entry = runtime.get(name);
    if (!entry || entry.plugin.status !== "active") return;
    try {
      this.bundles.set(name, await runtime.port.bundle(entry.spec));
    } catch {
      // The files on disk no longer build (an unsaved-elsewhere edit): keep the last good one.
    }
  }

  get(name: string): BundleOutput | undefined {
    return this.bundles.get(name);
  }

  forget(name: string): void {
    this.bundles.delete(name);
  }
}
