/**
 * config/features/plugins.yaml in each home (seed 000 "Plugin Feature Config", SPEC §4/§6):
 * project over global per field, command-line flags over both. Each home's `dir` resolves against
 * the home that declares it, so every home keeps its own plugins folder.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { z } from "zod";
import {
  isSandboxBackendName,
  SANDBOX_BACKEND_CHOICES,
  SANDBOX_BACKEND_NAMES,
  type SandboxBackendName,
} from "../../core/sandbox-backends.ts";
import type { Problem } from "../../host/problem.ts";
import { configDir, homeLayers, type Homes } from "../../config/homes.ts";
import {
  describeIssue,
  describeValue,
  isMap,
  problemIn,
  readYaml,
  unknownFieldWarnings,
  withoutNulls,
} from "./yaml-errors.ts";

/** A sandbox backend plugins.runtime can name (main/core/sandbox-backends.ts lists them). */
export type PluginRuntimeName = SandboxBackendName;

export type HomeSource = "global" | "project";

export interface PluginDir {
  dir: string;
  home: string;
  source: HomeSource;
}

export interface PluginConfigLayers {
  /** Sent to every plugin. */
  global: Record<string, unknown>;
  /** Per plugin name. */
  local: Record<string, Record<string, unknown>>;
}

/** One home's file: only the fields it sets. */
export interface FeaturesLayer {
  dir?: string;
  unsafe?: boolean;
  include?: string[];
  exclude?: string[];
  runtime?: PluginRuntimeName;
  config?: Partial<PluginConfigLayers>;
}

export interface PluginFeatures {
  /** Plugins folders, global first (lower precedence, and earlier in discovery). */
  dirs: PluginDir[];
  unsafe: boolean;
  include: string[];
  exclude: string[];
  /**
   * What selects the global home's plugins: include/exclude as above, but without an untrusted
   * project's own lists (a repository must not unload the user's plugins).
   */
  globalSelection: PluginSelection;
  /** "auto" when nobody chose: the host picks (isolated-vm where proven safe, else quickjs). */
  runtime: PluginRuntimeName | "auto";
  /** Who chose `runtime`: the features file that set it, "--plugin-runtime", or null (nobody). */
  runtimeSource: string | null;
  config: PluginConfigLayers;
  withoutPlugins: boolean;
}

export interface PluginSelection {
  include: string[];
  exclude: string[];
}

/** The include/exclude lists that apply to the plugins of one home. */
export function selectionFor(features: PluginFeatures, source: HomeSource): PluginSelection {
  return source === "global" ? features.globalSelection : features;
}

export interface PluginFlags {
  /**
   * Workspace trust: false (the default) ignores what the project's own features file would
   * widen (`unsafe: true`); the user's own flags and the global home still apply.
   */
  trustedProject?: boolean;
  unsafePlugins?: boolean;
  withoutPlugins?: boolean;
  pluginRuntime?: string;
}

type ErrorFn = (issue: { input?: unknown }) => string;
const expected =
  (what: string): ErrorFn =>
  (i) =>
    `expected ${what}, got ${describeValue(i.input)}`;
const configMap = z.record(z.string(), z.unknown(), { error: expected("a map of config values") });
const patterns = z.array(z.string({ error: expected("a plugin name or pattern") }), {
  error: expected('a list of plugin names or patterns, e.g. [notepad, "diagnostic-*"]'),
});

const layerSchema = z
  .object({
    dir: z.string({ error: expected("a folder path") }),
    unsafe: z.boolean({ error: expected("true or false") }),
    include: patterns,
    exclude: patterns,
    runtime: z.enum(SANDBOX_BACKEND_NAMES, { error: expected(SANDBOX_BACKEND_CHOICES) }),
    config: z
      .object({
        global: configMap,
        local: z.record(z.string(), configMap, {
          error: expected("a map of plugin names to config maps"),
        }),
      })
      .partial(),
  })
  .partial();

const LAYER_FIELDS = ["dir", "unsafe", "include", "exclude", "runtime", "config"];

/** Validates one features/plugins.yaml; invalid fields are reported and left out, the rest apply. */
export function parseFeaturesLayer(
  source: string,
  file: string,
): { layer: FeaturesLayer; errors: Problem[]; warnings: Problem[] } {
  const read = readYaml(source, file);
  if (!read.ok) return { layer: {}, errors: [read.error], warnings: [] };
  const top = read.data ?? {};
  if (!isMap(top)) {
    const title = `expected a map with a plugins: section, got ${describeValue(top)}`;
    return { layer: {}, errors: [problemIn(file, title)], warnings: [] };
  }
  const warnings = Object.keys(top)
    .filter((k) => k !== "plugins")
    .map((k) =>
      problemIn(
        file,
        LAYER_FIELDS.includes(k)
          ? `field "${k}" ignored: it belongs under plugins:`
          : `unknown field "${k}" (ignored)`,
      ),
    );
  const section = top.plugins ?? {};
  if (!isMap(section)) {
    const title = `plugins: expected a map of settings, got ${describeValue(section)}`;
    return { layer: {}, errors: [problemIn(file, title)], warnings };
  }
  const fields = withoutNulls(section);
  const at = { source: "plugins", file };
  warnings.push(...unknownFieldWarnings(fields, LAYER_FIELDS, { ...at, field: "plugins" }));
  const config = fields.config;
  if (isMap(config)) {
    fields.config = withoutNulls(config);
    warnings.push(
      ...unknownFieldWarnings(config, ["global", "local"], { ...at, field: "plugins.config" }),
    );
  }
  const errors: Problem[] = [];
  let parsed = layerSchema.safeParse(fields, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      errors.push(problemIn(file, describeIssue(issue, "plugins")));
      delete fields[String(issue.path[0])];
    }
    parsed = layerSchema.safeParse(fields);
  }
  return { layer: parsed.success ? parsed.data : {}, errors, warnings };
}

/** Later config layers win, key by key (shallow, as the seed's merge). */
export function mergePluginConfig(
  ...layers: (Record<string, unknown> | undefined)[]
): Record<string, unknown> {
  return Object.assign({}, ...layers.filter((l) => l !== undefined));
}

function resolveDir(home: string, dir: string | undefined): string {
  if (dir === undefined || dir.trim() === "") return path.join(home, "plugins");
  if (dir === "~" || dir.startsWith("~/")) return path.join(homedir(), dir.slice(1));
  return path.resolve(home, dir);
}

/** Merges home layers (lowest precedence first) into the effective settings. */
export function mergeFeatures(
  layers: { home: string; source: HomeSource; layer: FeaturesLayer; untrusted?: boolean }[],
): PluginFeatures {
  const out: PluginFeatures = {
    dirs: [],
    unsafe: false,
    include: [],
    exclude: [],
    globalSelection: { include: [], exclude: [] },
    runtime: "auto",
    runtimeSource: null,
    config: { global: {}, local: {} },
    withoutPlugins: false,
  };
  for (const { home, source, layer, untrusted } of layers) {
    const dir = resolveDir(home, layer.dir);
    // Two homes may name the same folder; scanning it twice would report every plugin as a duplicate.
    if (!out.dirs.some((d) => d.dir === dir)) out.dirs.push({ dir, home, source });
    if (layer.unsafe !== undefined) out.unsafe = layer.unsafe;
    if (layer.include !== undefined) out.include = layer.include;
    if (layer.exclude !== undefined) out.exclude = layer.exclude;
    if (!untrusted) out.globalSelection = { include: out.include, exclude: out.exclude };
    if (layer.runtime !== undefined) {
      out.runtime = layer.runtime;
      out.runtimeSource = `plugins.runtime in ${featuresFile(home)}`;
    }
    out.config.global = mergePluginConfig(out.config.global, layer.config?.global);
    for (const [name, values] of Object.entries(layer.config?.local ?? {})) {
      out.config.local[name] = mergePluginConfig(out.config.local[name], values);
    }
  }
  return out;
}

/** `--unsafe-plugins`, `--without-plugins`, `--plugin-runtime` over the files. */
export function applyPluginFlags(
  features: PluginFeatures,
  flags: PluginFlags,
): { features: PluginFeatures; errors: Problem[] } {
  const out = { ...features };
  const errors: Problem[] = [];
  if (flags.unsafePlugins) out.unsafe = true;
  if (flags.withoutPlugins) out.withoutPlugins = true;
  if (flags.pluginRuntime !== undefined) {
    if (isSandboxBackendName(flags.pluginRuntime)) {
      out.runtime = flags.pluginRuntime;
      out.runtimeSource = "--plugin-runtime";
    } else {
      errors.push({
        source: "--plugin-runtime",
        title: `expected ${SANDBOX_BACKEND_CHOICES}, got ${describeValue(flags.pluginRuntime)}`,
      });
    }
  }
  return { features: out, errors };
}

export function featuresFile(home: string): string {
  return configDir(home, "features", "plugins.yaml");
}

async function readLayer(file: string) {
  try {
    return parseFeaturesLayer(await readFile(file, "utf8"), file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { layer: {}, errors: [], warnings: [] };
    const errors = [problemIn(file, "cannot read", code ?? String(err))];
    return { layer: {}, errors, warnings: [] };
  }
}

/** Reads both homes' features/plugins.yaml and applies the flags. */
export async function loadPluginFeatures(
  homes: Homes,
  flags: PluginFlags = {},
): Promise<{ features: PluginFeatures; errors: Problem[]; warnings: Problem[] }> {
  const homeList = homeLayers(homes);
  const reads = await Promise.all(homeList.map((home) => readLayer(featuresFile(home))));
  const merged = mergeFeatures(
    homeList.map((home, i) => {
      const source: HomeSource = home === homes.global ? "global" : "project";
      const { unsafe: _held, ...narrowing } = reads[i].layer;
      const untrusted = source === "project" && !flags.trustedProject;
      return { home, source, layer: untrusted ? narrowing : reads[i].layer, untrusted };
    }),
  );
  const flagged = applyPluginFlags(merged, flags);
  return {
    features: flagged.features,
    errors: [...reads.flatMap((r) => r.errors), ...flagged.errors],
    warnings: reads.flatMap((r) => r.warnings),
  };
}
