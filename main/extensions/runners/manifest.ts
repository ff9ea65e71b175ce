/**
 * A runner plugin's manifest (seed 004): the seed's `manifest.json`, or a `plugin.yaml` with a
 * `runner:` key. Every error is one line naming the file and the field; unknown fields are
 * warnings. Values that reach a command line are checked here too: the command splits without a
 * shell, the image is a plain image reference, mount paths are absolute and hold no `,`, `:` or
 * `"` (the separators of docker's and podman's mount options), and nothing starts with `-`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { JsonValue } from "jsonpath-rfc9535";
import {
  describeIssue,
  isMap,
  readYaml,
  unknownFieldWarnings,
} from "../../code-plugins/loader/yaml-errors.ts";
import type { Problem } from "../../host/problem.ts";
import { commandArgv } from "./command-line.ts";

export const RUNNER_MANIFEST_JSON = "manifest.json";

export interface RunnerMount {
  hostPath: string;
  path: string;
  /** Read-only unless the manifest says `write: true`. */
  write: boolean;
}

export interface AutoDiscovery {
  args: string[];
  description: string;
}

export interface RunnerManifest {
  name: string;
  description: string;
  command: string[];
  runner: "native" | "container";
  /** A runner config's name; for a container, unset = the engine found (docker or podman). */
  runnerConfig?: string;
  image?: string;
  mount?: RunnerMount;
  /** Containers: false = no network at all (`--network none`). */
  network: boolean;
  autoDiscovery: AutoDiscovery[];
  /** JSON schema of the tool's input; unset = `{args?: string[], input?: object}`. */
  parameters?: Record<string, unknown>;
  timeoutSeconds?: number;
  activation: "on-demand" | "always";
  /** The manifest as written, `{working_dir}` and `{plugin_dir}` replaced: what JSON paths read. */
  raw: JsonValue;
}

export type RunnerManifestRead =
  | { ok: true; manifest: RunnerManifest; warnings: Problem[] }
  | { ok: false; errors: Problem[]; warnings: Problem[] };

const FIELDS = [
  "name",
  "description",
  "command",
  "runner",
  "runner_config",
  "image",
  "mount",
  "network",
  "auto_discovery",
  "parameters",
  "timeout_seconds",
  "activation",
  "hooks",
] as const;

const schema = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "expected 1 to 64 letters, digits, _ or -")
    .optional(),
  description: z.string().min(1, "must say what the tool does (the model reads it)"),
  command: z.union([z.string(), z.array(z.string())]),
  runner: z.enum(["native", "container"], 'expected "native" or "container"'),
  runner_config: z.string().min(1).optional(),
  image: z.string().optional(),
  mount: z
    .strictObject({ host_path: z.string(), path: z.string(), write: z.boolean().optional() })
    .optional(),
  network: z.boolean().optional(),
  auto_discovery: z
    .array(
      z.strictObject({
        arg: z.union([z.string(), z.array(z.string())]),
        description: z.string().optional(),
      }),
    )
    .optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  timeout_seconds: z.number().positive().max(600).optional(),
  activation: z.enum(["on-demand", "always"], 'expected "on-demand" or "always"').optional(),
  hooks: z.unknown().optional(),
});

/** A problem with a runner plugin's files (its manifest, a runner config). */
export function runnerProblem(file: string, title: string, cause?: string): Problem {
  return { source: "runners", file, title, ...(cause !== undefined ? { cause } : {}) };
}

/** The manifest file of a runner plugin folder, if it has one: manifest.json, or plugin.yaml. */
export async function readRunnerManifest(
  file: string,
  values: { workingDir: string },
): Promise<RunnerManifestRead> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    return { ok: false, errors: [runnerProblem(file, "cannot read", code)], warnings: [] };
  }
  let data: unknown;
  if (path.basename(file) === RUNNER_MANIFEST_JSON) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      return {
        ok: false,
        errors: [runnerProblem(file, `invalid JSON: ${(err as Error).message}`)],
        warnings: [],
      };
    }
  } else {
    const read = readYaml(text, file, "runners");
    if (!read.ok) return { ok: false, errors: [read.error], warnings: [] };
    data = read.data;
  }
  return parseRunnerManifest(data, file, values);
}

export function parseRunnerManifest(
  data: unknown,
  file: string,
  values: { workingDir: string },
): RunnerManifestRead {
  if (!isMap(data))
    return { ok: false, errors: [runnerProblem(file, "expected a map of fields")], warnings: [] };
  const warnings = unknownFieldWarnings(data, FIELDS, { source: "runners", file });
  if (data.hooks !== undefined)
    warnings.push(runnerProblem(file, "hooks: runner plugins have no hooks yet (ignored)"));
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => runnerProblem(file, describeIssue(i))),
      warnings,
    };
  const m = parsed.data;
  const dir = path.dirname(file);
  const errors: Problem[] = [];
  const fail = (field: string, what: string) =>
    errors.push(runnerProblem(file, `${field}: ${what}`));
  const dirs = { working_dir: values.workingDir, plugin_dir: dir };
  const raw = replaceDirs(data, dirs) as JsonValue;
  const rawMap = raw as Record<string, JsonValue>;

  // Split first, then fill in the folders: a path with spaces stays one entry.
  const command = commandArgv(m.command);
  if (command.ok) command.argv = command.argv.map((a) => replaceDirs(a, dirs) as string);
  if (!command.ok) fail("command", command.error);
  else if (command.argv[0].startsWith("-"))
    fail("command", `${JSON.stringify(command.argv[0])} starts with "-": name a program first`);

  const name = m.name ?? path.basename(dir);
  if (m.name === undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(name))
    fail(
      "name",
      `missing, and the folder name "${name}" is not a tool name: set name: (letters, digits, _ or -)`,
    );

  if (m.image !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$/.test(m.image))
    fail(
      "image",
      `${JSON.stringify(m.image)} is not an image reference (like mcr.microsoft.com/dotnet/sdk:8.0)`,
    );
  if (m.runner === "container" && m.image === undefined)
    fail("image", "missing: a container runner needs the image to run");

  let mount: RunnerMount | undefined;
  if (m.mount) {
    const mounted = rawMap.mount as Record<string, string>;
    const hostPath = mounted.host_path;
    const problem = (p: string, absolute: boolean) =>
      !absolute
        ? "must be an absolute path ({working_dir} is the workspace)"
        : /[,:"\n\0]/.test(p)
          ? `${JSON.stringify(p)} holds one of , : " or a line break, which container engines read as separators`
          : undefined;
    const hostProblem = problem(hostPath, path.isAbsolute(hostPath));
    const pathProblem = problem(mounted.path, mounted.path.startsWith("/"));
    if (hostProblem) fail("mount.host_path", hostProblem);
    if (pathProblem) fail("mount.path", pathProblem);
    mount = { hostPath: path.resolve(hostPath), path: mounted.path, write: m.mount.write === true };
  }

  const autoDiscovery: AutoDiscovery[] = [];
  for (const [i, entry] of (m.auto_discovery ?? []).entries()) {
    const args = commandArgv(entry.arg);
    if (!args.ok) fail(`auto_discovery[${i}].arg`, args.error);
    else
      autoDiscovery.push({
        args: args.argv.map((a) => replaceDirs(a, dirs) as string),
        description: entry.description ?? "",
      });
  }
  if (m.parameters !== undefined && m.parameters.type !== "object")
    fail("parameters", 'expected a JSON schema with type: "object"');

  if (errors.length > 0 || !command.ok) return { ok: false, errors, warnings };
  return {
    ok: true,
    warnings,
    manifest: {
      name,
      description: m.description,
      command: command.argv,
      runner: m.runner,
      runnerConfig: m.runner_config,
      image: m.image,
      mount,
      network: m.network !== false,
      autoDiscovery,
      parameters: m.parameters,
      timeoutSeconds: m.timeout_seconds,
      activation: m.activation ?? "on-demand",
      raw,
    },
  };
}

/** `{working_dir}` and `{plugin_dir}` in every text value (the seed's mount: "{working_dir}"). */
function replaceDirs(value: unknown, dirs: Record<string, string>): unknown {
  if (typeof value === "string")
    return value.replace(/\{(working_dir|plugin_dir)\}/g, (_, name: string) => dirs[name]);
  if (Array.isArray(value)) return value.map((v) => replaceDirs(v, dirs));
  if (isMap(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceDirs(v, dirs)]));
  return value;
}
