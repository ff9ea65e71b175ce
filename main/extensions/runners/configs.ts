/**
 * Runner configs (seed 004 `runner-configs.json`): how a runner checks for, installs and runs a
 * plugin's command. Built in: `native`, `docker-config`, `podman-config`
 * (resources/runner-configs.json). The user's `<global home>/config/runner-configs.json` adds or
 * replaces configs by name; a project's `.islet/config/runner-configs.json` only when the folder
 * is trusted (SPEC §6: a project's configuration runs nothing until then).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { configDir, type Homes } from "../../config/homes.ts";
import { isMap, unknownFieldWarnings } from "../../code-plugins/loader/yaml-errors.ts";
import type { Problem } from "../../host/problem.ts";
import { runnerProblem } from "./manifest.ts";
import { parseTemplate, type Template } from "./template.ts";

export const RUNNER_CONFIGS_FILE = "runner-configs.json";

export interface RunnerConfig {
  name: string;
  /** The file it came from (errors name it). */
  file: string;
  description: string;
  /** Container configs: the engine's program ("docker", "podman"); unset for native ones. */
  engine?: string;
  exists?: Template;
  install?: Template;
  run: Template;
  /** After a call was stopped: what stops what the run left behind (`docker rm -f {run_name}`). */
  stop?: Template;
}

export interface RunnerConfigs {
  configs: Map<string, RunnerConfig>;
  problems: Problem[];
  warnings: Problem[];
}

const FIELDS = [
  "description",
  "engine",
  "command_exists",
  "command_install",
  "command_run",
  "command_stop",
];

/** The built-in file: beside the packaged app's resources, or up from this file (sources or out/main). */
export function builtinRunnerConfigsFile(): string {
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [
    ...(packaged ? [path.join(packaged, "resources", RUNNER_CONFIGS_FILE)] : []),
    path.resolve(import.meta.dirname, "../../../resources", RUNNER_CONFIGS_FILE),
    path.resolve(import.meta.dirname, "../../resources", RUNNER_CONFIGS_FILE),
  ];
  return candidates.find((file) => existsSync(file)) ?? candidates[0];
}

export async function loadRunnerConfigs(opts: {
  homes: Homes;
  trustedProject: boolean;
  builtinFile?: string;
}): Promise<RunnerConfigs> {
  const out: RunnerConfigs = { configs: new Map(), problems: [], warnings: [] };
  const files = [
    opts.builtinFile ?? builtinRunnerConfigsFile(),
    configDir(opts.homes.global, RUNNER_CONFIGS_FILE),
  ];
  if (opts.trustedProject && opts.homes.project !== opts.homes.global)
    files.push(configDir(opts.homes.project, RUNNER_CONFIGS_FILE));
  for (const [i, file] of files.entries()) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Only the built-in file must exist.
      if (code !== "ENOENT" || i === 0)
        out.problems.push(runnerProblem(file, "cannot read", code ?? String(err)));
      continue;
    }
    parseRunnerConfigs(text, file, out);
  }
  return out;
}

/** Adds the configs of one file to `out` (later files replace earlier ones by name). */
export function parseRunnerConfigs(text: string, file: string, out: RunnerConfigs): void {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    out.problems.push(runnerProblem(file, `invalid JSON: ${(err as Error).message}`));
    return;
  }
  if (!isMap(data)) {
    out.problems.push(runnerProblem(file, "expected a map of runner configs by name"));
    return;
  }
  for (const [name, entry] of Object.entries(data)) {
    const fail = (field: string, what: string) =>
      out.problems.push(runnerProblem(file, `${name}${field}: ${what}`));
    if (!isMap(entry)) {
      fail("", "expected a map with command_run");
      continue;
    }
    out.warnings.push(
      ...unknownFieldWarnings(entry, FIELDS, { source: "runners", file, field: name }),
    );
    const templates: Partial<Record<"exists" | "install" | "run" | "stop", Template>> = {};
    let ok = true;
    for (const [key, field] of [
      ["exists", "command_exists"],
      ["install", "command_install"],
      ["run", "command_run"],
      ["stop", "command_stop"],
    ] as const) {
      const value = entry[field];
      if (value === undefined || value === null) continue;
      const parsed = parseTemplate(value);
      if ("error" in parsed) {
        fail(`.${field}`, parsed.error);
        ok = false;
      } else templates[key] = parsed.template;
    }
    if (!templates.run) {
      if (ok) fail(".command_run", "missing: how the runner runs the command");
      continue;
    }
    if (!ok) continue;
    const runs = templates.run.filter((e) => e === "{command}").length;
    if (runs !== 1) {
      fail(".command_run", "must hold {command} once, as an entry of its own");
      continue;
    }
    const engine = entry.engine;
    if (engine !== undefined && (typeof engine !== "string" || !/^[a-z][a-z0-9-]*$/.test(engine))) {
      fail(".engine", 'expected a program name like "docker" or "podman"');
      continue;
    }
    out.configs.set(name, {
      name,
      file,
      description: typeof entry.description === "string" ? entry.description : "",
      engine,
      exists: templates.exists,
      install: templates.install,
      run: templates.run,
      stop: templates.stop,
    });
  }
}
