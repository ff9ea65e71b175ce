/**
 * The plugin loader's public face: features config, discovery, manifests, SDK checks and
 * bundling. `loadPlugins` is the one call a host needs at startup and on /reload.
 */
import path from "node:path";
import type { Homes } from "../../config/homes.ts";
import { discoverPlugins, type DiscoveredPlugin } from "./discover.ts";
import {
  loadPluginFeatures,
  mergePluginConfig,
  type PluginFeatures,
  type PluginFlags,
} from "./features.ts";
import type { Problem } from "../../host/problem.ts";

export * from "./bundle.ts";
export * from "./discover.ts";
export * from "./features.ts";
export * from "./manifest.ts";
export * from "./sdk-version.ts";
export { findPluginFolders, isSkippedFolder, MANIFEST_NAME } from "./walk.ts";

export interface PluginLoad {
  features: PluginFeatures;
  plugins: DiscoveredPlugin[];
  errors: Problem[];
  warnings: Problem[];
}

/** Reads features/plugins.yaml in both homes, applies the flags, and discovers every plugin. */
export async function loadPlugins(homes: Homes, flags: PluginFlags = {}): Promise<PluginLoad> {
  const f = await loadPluginFeatures(homes, flags);
  const d = await discoverPlugins({
    dirs: f.features.dirs,
    include: f.features.include,
    exclude: f.features.exclude,
    globalSelection: f.features.globalSelection,
    withoutPlugins: f.features.withoutPlugins,
  });
  return {
    features: f.features,
    plugins: d.plugins,
    errors: [...f.errors, ...d.errors],
    warnings: [...f.warnings, ...d.warnings, ...d.plugins.flatMap((p) => p.warnings)],
  };
}

/** ctx.pluginConfig for one plugin: plugin.yaml config, then config.global, then config.local.<name>. */
export function pluginConfigFor(
  features: PluginFeatures,
  plugin: Pick<DiscoveredPlugin, "name" | "manifest">,
): Record<string, unknown> {
  return mergePluginConfig(
    plugin.manifest.config,
    features.config.global,
    features.config.local[plugin.name],
  );
}

/** The bundle cache folder for a global home (SPEC §4 keeps caches out of the project). */
export function pluginCacheDir(globalHome: string): string {
  return path.join(globalHome, "cache", "plugins");
}
