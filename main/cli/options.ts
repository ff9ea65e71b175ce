/** Flag parsing on node:util parseArgs, with usage errors in one line. */
import { statSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { isSandboxBackendName, SANDBOX_BACKEND_CHOICES } from "../core/sandbox-backends.ts";
import { UsageError } from "./usage.ts";

export const COMMON_OPTIONS = {
  home: { type: "string" },
  workdir: { type: "string" },
  "env-file": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

export const MODEL_OPTIONS = {
  provider: { type: "string" },
  model: { type: "string" },
  "base-url": { type: "string" },
  agent: { type: "string" },
  "without-plugins": { type: "boolean" },
  "unsafe-plugins": { type: "boolean" },
  "plugin-runtime": { type: "string" },
  set: { type: "string", multiple: true },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

export function parseFlags<O extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: O,
): {
  values: ReturnType<
    typeof parseArgs<{ options: O; allowPositionals: true; strict: true; args: string[] }>
  >["values"];
  positionals: string[];
} {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options,
      allowPositionals: true,
      strict: true,
    });
    checkPaths(values as { workdir?: unknown; "env-file"?: unknown });
    return { values, positionals };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // parseArgs messages are long and mention internals; keep the useful first sentence.
    const message = (err as Error).message.split(/\. (?=To specify)/)[0];
    throw new UsageError(message);
  }
}

/** What kind of thing is at `path`, if anything. */
export function pathKind(path: string): "folder" | "file" | null {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? "folder" : "file";
  } catch {
    return null;
  }
}

/** A folder or file named on the command line that is not there is bad usage, said before any work. */
function checkPaths(values: { workdir?: unknown; "env-file"?: unknown }): void {
  const workdir = values.workdir;
  if (typeof workdir === "string" && pathKind(workdir) !== "folder")
    throw new UsageError(
      `--workdir ${workdir}: ${pathKind(workdir) ? "not a folder" : "no such folder"}; name the folder to work in`,
    );
  const envFile = values["env-file"];
  if (typeof envFile === "string" && pathKind(envFile) !== "file")
    throw new UsageError(
      `--env-file ${envFile}: ${pathKind(envFile) ? "a folder, not a file" : "no such file"}; name a file of KEY=VALUE lines, or leave --env-file out`,
    );
}

export function parsePositiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`${flag}: expected a positive whole number, got "${value}"`);
  return Number(value);
}

export function parseVars(pairs: readonly string[] | undefined): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`--set: expected KEY=VALUE, got "${pair}"`);
    vars[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return vars;
}

export const PLUGIN_OPTIONS = {
  "without-plugins": { type: "boolean" },
  "unsafe-plugins": { type: "boolean" },
  "plugin-runtime": { type: "string" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

export function pluginFlags(values: {
  "without-plugins"?: boolean;
  "unsafe-plugins"?: boolean;
  "plugin-runtime"?: string;
}): { withoutPlugins?: boolean; unsafePlugins?: boolean; pluginRuntime?: string } {
  const runtime = values["plugin-runtime"];
  if (runtime !== undefined && !isSandboxBackendName(runtime)) {
    throw new UsageError(`--plugin-runtime: expected ${SANDBOX_BACKEND_CHOICES}, got "${runtime}"`);
  }
  return {
    withoutPlugins: values["without-plugins"],
    unsafePlugins: values["unsafe-plugins"],
    pluginRuntime: runtime,
  };
}
