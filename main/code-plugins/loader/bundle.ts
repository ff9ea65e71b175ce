/**
 * Bundles a plugin's entry and its node_modules into one ES module for the sandbox (SPEC §6,
 * ENGINEERING §3), with an inline source map so stack traces point at the plugin's own lines,
 * and caches the result by the content of every input (see bundle-cache.ts).
 */
import * as esbuild from "esbuild";
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  bundleHash,
  fileState,
  hashBytes,
  readCache,
  writeCache,
  type BundleMessage,
} from "./bundle-cache.ts";
import { BUNDLE_GUARD_VERSION, bundleGuard } from "./bundle-guard.ts";
import { trackedFilesFor } from "./bundle-inputs.ts";
import { explainUnresolved } from "./node-builtins.ts";
import { formatProblem, type Problem } from "../../host/problem.ts";

export type { BundleMessage } from "./bundle-cache.ts";

/** ENGINEERING §3 settings; part of the cache key, so changing them invalidates every bundle. */
export const BUNDLE_SETTINGS = {
  bundle: true,
  write: false,
  platform: "neutral",
  format: "esm",
  target: "es2023",
  mainFields: ["module", "main"],
  conditions: ["import", "default"],
  external: ["@islet/sdk", "@islet/sdk/exec"],
  metafile: true,
  sourcemap: "inline",
  // Stack traces need the mappings only; the sources are on disk. Halves what a warm load reads.
  sourcesContent: false,
  logLevel: "silent",
} as const satisfies esbuild.BuildOptions;

export interface BundleOptions {
  /** Absolute path of the entry module. */
  entry: string;
  /** The plugin folder: source map paths and error locations are relative to it. */
  pluginDir: string;
  /** Where cached bundles live (e.g. <globalHome>/cache/plugins); none = always build. */
  cacheDir?: string;
  /** Replaces esbuild.build (tests count calls through it). */
  build?: (options: esbuild.BuildOptions) => Promise<esbuild.BuildResult>;
}

export type BundleResult =
  | {
      ok: true;
      /** One ES module: imports only @islet/sdk and @islet/sdk/exec. */
      code: string;
      /** Every file the bundle depends on (absolute), for the watcher. */
      inputs: string[];
      cached: boolean;
      /** Content hash of this exact bundle. */
      hash: string;
      warnings: BundleMessage[];
    }
  | {
      ok: false;
      errors: BundleMessage[];
      /** One line per error: `file:line:column: text`. */
      message: string;
      /** Files read before the failure (a syntax error's file among them). */
      inputs: string[];
    };

/**
 * Starts esbuild's service process (~30-60 ms, once per process) ahead of the first plugin
 * load; call it early at startup, alongside other work, and do not await it on a critical path.
 */
export async function warmUpBundler(): Promise<void> {
  await esbuild.transform("", { loader: "ts" });
}

/** A bundle error or warning as a problem at its file, line and column (as far as esbuild knew). */
export function bundleProblem(m: BundleMessage): Problem {
  const at = m.line > 0 ? { line: m.line, column: m.column } : {};
  return { source: "plugins", file: m.file, ...at, title: m.text };
}

/** `file:line:column: text`, dropping the parts esbuild did not know. */
export function formatBundleMessage(m: BundleMessage): string {
  return formatProblem(bundleProblem(m));
}

/**
 * Inputs are hashed after the build. A file written while esbuild ran would then hash newer than
 * the code it went into, so a bundle whose inputs changed after (about) its start is returned but
 * not cached. The margin covers coarse file-system timestamps (a jiffy on Linux).
 */
const MTIME_MARGIN_MS = 20;

function toMessages(list: esbuild.Message[], pluginDir: string, entry: string): BundleMessage[] {
  return list.map((m) => {
    const loc = m.location;
    // One line per message: the editor and the notice list show them line by line.
    const text = explainUnresolved(m.text, pluginDir).replace(/\s*\n\s*/g, " ");
    if (!loc) return { file: entry, line: 0, column: 0, text };
    // esbuild columns are 0-based; editors and `file:line:col` are 1-based.
    return {
      file: path.resolve(pluginDir, loc.file),
      line: loc.line,
      column: loc.column + 1,
      text,
    };
  });
}

async function readTsconfig(pluginDir: string): Promise<string> {
  try {
    return await readFile(path.join(pluginDir, "tsconfig.json"), "utf8");
  } catch {
    return "{}";
  }
}

export async function bundlePlugin(opts: BundleOptions): Promise<BundleResult> {
  const entry = path.resolve(opts.entry);
  const pluginDir = path.resolve(opts.pluginDir);
  const key = hashBytes(
    JSON.stringify({
      esbuild: esbuild.version,
      entry,
      pluginDir,
      settings: BUNDLE_SETTINGS,
      guard: BUNDLE_GUARD_VERSION,
    }),
  );
  if (opts.cacheDir) {
    const hit = await readCache(opts.cacheDir, key);
    if (hit) {
      const { record, code } = hit;
      const inputs = Object.keys(record.inputs).filter((f) => record.inputs[f] !== null);
      return { ok: true, code, inputs, cached: true, hash: record.hash, warnings: record.warnings };
    }
  }

  const build = opts.build ?? esbuild.build;
  const startedAt = Date.now();
  let result: esbuild.BuildResult;
  try {
    result = await build({
      ...BUNDLE_SETTINGS,
      entryPoints: [entry],
      absWorkingDir: pluginDir,
      // Only the plugin's own tsconfig.json counts: never one from a folder above the plugin.
      tsconfigRaw: await readTsconfig(pluginDir),
      plugins: [bundleGuard(pluginDir, BUNDLE_SETTINGS.external)],
    });
  } catch (err) {
    const failure = err as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw err;
    const errors = toMessages(failure.errors, pluginDir, entry);
    // esbuild gives no metafile on failure: the entry and the files named in errors.
    const inputs = [...new Set([entry, ...errors.map((e) => e.file)])];
    return { ok: false, errors, message: errors.map(formatBundleMessage).join("\n"), inputs };
  }

  const modules = Object.keys(result.metafile?.inputs ?? {})
    // "ns:path" inputs (none today) have no file behind them; a drive letter is one character.
    .filter((f) => !/^[\w-]{2,}:/.test(f))
    .map((f) => path.resolve(pluginDir, f));
  const hashes: Record<string, string | null> = {};
  let changedDuringBuild = false;
  for (const f of [...modules, ...(await trackedFilesFor(pluginDir, modules))]) {
    const state = fileState(f);
    hashes[f] = state.hash;
    if (state.mtimeMs >= startedAt - MTIME_MARGIN_MS) changedDuringBuild = true;
  }

  const code = result.outputFiles?.[0]?.text ?? "";
  const warnings = toMessages(result.warnings, pluginDir, entry);
  const hash = bundleHash(key, hashes);
  if (opts.cacheDir && !changedDuringBuild) {
    await writeCache(opts.cacheDir, { key, hash, inputs: hashes, warnings }, code);
  }
  const inputs = Object.keys(hashes).filter((f) => hashes[f] !== null);
  return { ok: true, code, inputs, cached: false, hash, warnings };
}
