/**
 * plugin.yaml (seed 000 "Plugin Config", SPEC §6): validated with zod, normalised to camelCase.
 * Every error is one line naming the file and field; unknown fields are warnings so a manifest
 * written for a newer Islet still loads.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import {
  NO_PERMISSIONS,
  pluginPermissionsSchema,
  type PluginPermissions,
} from "../capabilities/permissions.ts";
import { parseCondition, type Condition } from "../conditions/parse.ts";
import type { Problem } from "../../host/problem.ts";
import { SEMVER_PATTERN } from "./sdk-version.ts";
import {
  describeIssue,
  describeValue,
  isMap,
  problemIn,
  readYaml,
  unknownFieldWarnings,
  withoutNulls,
} from "./yaml-errors.ts";

export interface PluginManifest {
  /** Explicit identity; otherwise the plugin is named after its folder. */
  name?: string;
  description: string;
  disabled: boolean;
  /** Tools: replace a built-in tool of the same name. */
  override: boolean;
  /** Tools: hidden unless enabled by name. */
  optIn: boolean;
  /** Injectors: parsed at load, evaluated before every hook call. */
  condition?: Condition;
  /** Injectors: fire at most once per session. */
  once: boolean;
  /** Environment variables the plugin may read; "*" = all. */
  env: string[];
  /** Defaults for ctx.pluginConfig (features config layers on top). */
  config: Record<string, unknown>;
  /** SDK version the plugin was written against (x.y.z). */
  sdk?: string;
  /** Entry module, relative to the plugin folder. */
  main?: string;
  permissions: PluginPermissions;
  /**
   * "always" (default): loaded at start. "on-demand": discovered and listed to the model, loaded
   * only once activated (the user confirms; main/extensions/activation/).
   */
  activation: PluginActivation;
  /**
   * The plugin keeps nothing in its isolate's memory between calls (module variables, timers):
   * Islet may release the isolate after a while without calls and recreate it for the next one.
   */
  stateless: boolean;
}

export type PluginActivation = "always" | "on-demand";

export const MANIFEST_FIELDS = [
  "name",
  "description",
  "disabled",
  "override",
  "opt_in",
  "condition",
  "once",
  "env",
  "config",
  "sdk",
  "main",
  "permissions",
  "activation",
  "stateless",
] as const;

type ErrorFn = (issue: { input?: unknown }) => string;
const expected =
  (what: string): ErrorFn =>
  (issue) =>
    `expected ${what}, got ${describeValue(issue.input)}`;

const flag = z.boolean({ error: expected("true or false") });
const text = (what = "text") => z.string({ error: expected(what) });

const NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const ENV_NAME = /^([A-Za-z_][A-Za-z0-9_]*|\*)$/;

const manifestSchema = z
  .object({
    name: text("a plugin name").regex(NAME, {
      error: (i) =>
        `expected letters, digits, ".", "_" or "-" (it names the plugin in config and commands), got ${describeValue(i.input)}`,
    }),
    description: text(),
    disabled: flag,
    override: flag,
    opt_in: flag,
    condition: text('a condition such as "auto and context_above:70"').transform((src, ctx) => {
      try {
        return parseCondition(src);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    }),
    once: flag,
    env: z.array(
      text("a variable name").regex(ENV_NAME, {
        error: (i) =>
          `expected a variable name like MY_API_KEY, or "*", got ${describeValue(i.input)}`,
      }),
      { error: expected('a list of variable names, e.g. [MY_API_KEY] or ["*"]') },
    ),
    config: z.record(z.string(), z.unknown(), { error: expected("a map of config values") }),
    sdk: z
      .string({
        error: (i) =>
          typeof i.input === "number"
            ? `expected a version in quotes, e.g. sdk: "0.1.0", got ${i.input}`
            : `expected a version like "0.1.0", got ${describeValue(i.input)}`,
      })
      .regex(SEMVER_PATTERN, {
        error: (i) => `expected a version like "0.1.0", got ${describeValue(i.input)}`,
      }),
    main: text("a path to the entry module").refine(
      (p) => p.trim() !== "" && !path.isAbsolute(p) && !path.normalize(p).startsWith(".."),
      {
        error: (i) =>
          `expected a path inside the plugin folder, e.g. src/index.ts, got ${describeValue(i.input)}`,
      },
    ),
    permissions: pluginPermissionsSchema,
    activation: z.enum(["always", "on-demand"], {
      error: (i) => `expected "always" or "on-demand", got ${describeValue(i.input)}`,
    }),
    stateless: flag,
  })
  .partial();

export type ManifestResult =
  | { ok: true; manifest: PluginManifest; warnings: Problem[] }
  | {
      ok: false;
      /** One each, in the file: `field: what is wrong`. */
      errors: Problem[];
      warnings: Problem[];
      /** Whatever identity fields were readable, so exclude/disabled still apply to a broken plugin. */
      partial: { name?: string; disabled?: boolean };
    };

/** Validates plugin.yaml text; every problem names `file`. */
export function parseManifest(source: string, file: string): ManifestResult {
  const read = readYaml(source, file);
  if (!read.ok) return { ok: false, errors: [read.error], warnings: [], partial: {} };
  const raw = read.data ?? {};
  if (!isMap(raw)) {
    const error = problemIn(
      file,
      `expected fields such as description: "…", got ${describeValue(raw)}`,
    );
    return { ok: false, errors: [error], warnings: [], partial: {} };
  }
  const fields = withoutNulls(raw);
  const warnings = unknownFieldWarnings(fields, MANIFEST_FIELDS, { source: "plugins", file });
  const parsed = manifestSchema.safeParse(fields, { reportInput: true });
  if (!parsed.success) {
    const partial = {
      name: typeof fields.name === "string" ? fields.name : undefined,
      disabled: typeof fields.disabled === "boolean" ? fields.disabled : undefined,
    };
    const errors = parsed.error.issues.map((i) => problemIn(file, describeIssue(i)));
    return { ok: false, errors, warnings, partial };
  }
  const m = parsed.data;
  const manifest: PluginManifest = {
    description: m.description ?? "",
    disabled: m.disabled ?? false,
    override: m.override ?? false,
    optIn: m.opt_in ?? false,
    once: m.once ?? false,
    env: m.env ?? [],
    config: m.config ?? {},
    permissions: m.permissions ?? NO_PERMISSIONS,
    activation: m.activation ?? "always",
    stateless: m.stateless ?? false,
  };
  if (m.name !== undefined) manifest.name = m.name;
  if (m.condition !== undefined) manifest.condition = m.condition;
  if (m.sdk !== undefined) manifest.sdk = m.sdk.replace(/^v/, "");
  if (m.main !== undefined) manifest.main = m.main;
  return { ok: true, manifest, warnings };
}

/**
 * Reads and validates a plugin.yaml file; `source` is its text when the caller already read it
 * (discovery's folder walk does).
 */
export async function readManifest(file: string, source?: string): Promise<ManifestResult> {
  if (source !== undefined) return parseManifest(source, file);
  try {
    source = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    // The code stays in the title: discovery appends "(plugin skipped)" to it.
    const errors = [problemIn(file, `cannot read (${code})`)];
    return { ok: false, errors, warnings: [], partial: {} };
  }
  return parseManifest(source, file);
}
