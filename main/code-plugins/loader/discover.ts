/**
 * Plugin discovery (seed 000, SPEC §6): every plugin folder under each home's plugins dir, its
 * validated manifest and entry module, include/exclude, and duplicate names as load errors (a
 * global plugin wins over a project one of its name).
 * The list is sorted by name: alphabetical order is the hook execution order.
 */
import { statSync } from "node:fs";
import path from "node:path";
import type { Problem } from "../../host/problem.ts";
import type { HomeSource, PluginDir } from "./features.ts";
import { readManifest, type PluginManifest } from "./manifest.ts";
import {
  hostSdkVersion,
  sdkCompatibility,
  sdkLoadError,
  type SdkCompatibility,
} from "./sdk-version.ts";
import { findPluginFolders, MANIFEST_NAME } from "./walk.ts";
import { problemIn } from "./yaml-errors.ts";

export type PluginStatus =
  /** To be loaded. */
  | "enabled"
  /** `disabled: true` in plugin.yaml. */
  | "disabled"
  /** Left out by features include/exclude. */
  | "excluded"
  /** Its `sdk:` is outside the host's range (an error says so). */
  | "incompatible";

export interface DiscoveredPlugin {
  name: string;
  dir: string;
  manifestFile: string;
  manifest: PluginManifest;
  /** Absolute entry module; "" when a skipped plugin has none. */
  entry: string;
  home: string;
  source: HomeSource;
  status: PluginStatus;
  sdk: SdkCompatibility;
  /** Manifest warnings (unknown fields…). */
  warnings: Problem[];
}

export interface DiscoverOptions {
  /** Plugins dirs in discovery order (global first). */
  dirs: PluginDir[];
  include?: string[];
  exclude?: string[];
  /** What selects the global home's plugins, when not include/exclude (features.globalSelection). */
  globalSelection?: { include: string[]; exclude: string[] };
  /** `--without-plugins`: nothing is read at all. */
  withoutPlugins?: boolean;
  hostSdk?: string;
}

export interface Discovery {
  plugins: DiscoveredPlugin[];
  errors: Problem[];
  warnings: Problem[];
}

export const DEFAULT_ENTRIES = ["index.ts", "index.js", "index.mjs", "index.mts"];

/** `*` matches any run of characters; everything else is literal. */
export function matchesPattern(name: string, pattern: string): boolean {
  const re = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${re.join(".*")}$`).test(name);
}

/** include (empty = all), then exclude. */
export function isSelected(name: string, include: string[] = [], exclude: string[] = []): boolean {
  if (include.length > 0 && !include.some((p) => matchesPattern(name, p))) return false;
  return !exclude.some((p) => matchesPattern(name, p));
}

/** Synchronous: a stat is a few µs, its thread-pool round trip far more (see readText in walk.ts). */
function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The entry module: `main:` or the first index.* found. */
function findEntry(
  dir: string,
  manifest: PluginManifest,
  manifestFile: string,
): { entry: string } | { error: Problem } {
  if (manifest.main !== undefined) {
    const entry = path.resolve(dir, manifest.main);
    if (isFile(entry)) return { entry };
    return { error: problemIn(manifestFile, `main: "${manifest.main}" does not exist in ${dir}`) };
  }
  for (const name of DEFAULT_ENTRIES) {
    const entry = path.join(dir, name);
    if (isFile(entry)) return { entry };
  }
  return {
    error: problemIn(
      dir,
      "no entry module: add index.ts (or index.js, index.mjs, index.mts), or set main: in plugin.yaml",
    ),
  };
}

/** Reads one plugin folder. Problems with skipped plugins become warnings: skipping is how users silence them. */
async function readPlugin(
  folder: string,
  where: PluginDir,
  opts: DiscoverOptions,
  out: Discovery,
  manifestText: string | undefined,
) {
  const manifestFile = path.join(folder, MANIFEST_NAME);
  const read = await readManifest(manifestFile, manifestText);
  const leaf = path.basename(folder);
  const { include, exclude } =
    where.source === "global" && opts.globalSelection ? opts.globalSelection : opts;
  if (!read.ok) {
    const name = read.partial.name ?? leaf;
    const skipped = read.partial.disabled === true || !isSelected(name, include, exclude);
    if (skipped)
      out.warnings.push(
        ...read.errors.map((e) => ({ ...e, title: `${e.title} (plugin skipped)` })),
      );
    else out.errors.push(...read.errors);
    out.warnings.push(...read.warnings);
    return;
  }
  const { manifest } = read;
  const name = manifest.name ?? leaf;
  let status: PluginStatus = manifest.disabled
    ? "disabled"
    : isSelected(name, include, exclude)
      ? "enabled"
      : "excluded";
  const found = findEntry(folder, manifest, manifestFile);
  if ("error" in found && status === "enabled") {
    out.errors.push(found.error);
    return;
  }
  const sdk = sdkCompatibility(manifest, opts.hostSdk ?? hostSdkVersion);
  if (sdk.status === "incompatible" && status === "enabled") {
    status = "incompatible";
    const title = sdkLoadError(name, manifest, opts.hostSdk ?? hostSdkVersion) ?? "";
    out.errors.push(problemIn(manifestFile, title));
  }
  out.plugins.push({
    name,
    dir: folder,
    manifestFile,
    manifest,
    entry: "entry" in found ? found.entry : "",
    home: where.home,
    source: where.source,
    status,
    sdk,
    warnings: read.warnings,
  });
}

/**
 * Duplicate names among plugins that would load. A global plugin always wins over a project one
 * of its name: a repository must not unload (or stand in for) the user's own guard plugins by
 * naming a plugin like them. Duplicates within one home are both dropped, one error naming both.
 */
function dropDuplicates(out: Discovery): void {
  const byName = new Map<string, DiscoveredPlugin[]>();
  for (const p of out.plugins) {
    if (p.status === "disabled" || p.status === "excluded") continue;
    byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  }
  const dropped = new Set<DiscoveredPlugin>();
  for (const [name, all] of byName) {
    if (all.length < 2) continue;
    const globals = all.filter((p) => p.source === "global");
    let group = all;
    if (globals.length > 0) {
      for (const other of all.filter((p) => p.source !== "global")) {
        out.errors.push(
          problemIn(
            other.manifestFile,
            `plugin "${name}" not loaded: the global plugin ${globals[0].dir} has this name, and a workspace plugin cannot replace a global one (rename it with name: in its plugin.yaml)`,
          ),
        );
        dropped.add(other);
      }
      group = globals;
      if (group.length < 2) continue;
    }
    const [first, ...rest] = group;
    for (const other of rest) {
      out.errors.push(
        problemIn(
          other.manifestFile,
          `duplicate plugin name "${name}": ${first.dir} and ${other.dir} (rename one with name: in its plugin.yaml, or set disabled: true)`,
        ),
      );
    }
    for (const p of group) dropped.add(p);
  }
  out.plugins = out.plugins.filter((p) => !dropped.has(p));
}

export async function discoverPlugins(opts: DiscoverOptions): Promise<Discovery> {
  const out: Discovery = { plugins: [], errors: [], warnings: [] };
  if (opts.withoutPlugins) return out;
  for (const where of opts.dirs) {
    const walked = await findPluginFolders(where.dir);
    out.errors.push(...walked.errors);
    // Read in parallel, merged in folder order so messages come out the same every time.
    const reads = await Promise.all(
      walked.folders.map(async (folder) => {
        const one: Discovery = { plugins: [], errors: [], warnings: [] };
        await readPlugin(folder, where, opts, one, walked.manifests.get(folder));
        return one;
      }),
    );
    for (const one of reads) {
      out.plugins.push(...one.plugins);
      out.errors.push(...one.errors);
      out.warnings.push(...one.warnings);
    }
  }
  // Still in discovery order here, so a duplicate's "first" is the global one, then by path.
  dropDuplicates(out);
  out.plugins.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}
