/**
 * A manifest against the runner configs it may run with: which configs (its `runner_config`, or
 * for a container docker's and podman's, whichever answers at activation), each template bound
 * to the manifest's values at load, so a bad JSON path or a value that would inject an option is
 * a load error naming the files and the field, never a surprise at run time.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { ENGINE_CONFIGS } from "./container-engine.ts";
import type { RunnerConfig, RunnerConfigs } from "./configs.ts";
import { runnerProblem, type RunnerManifest } from "./manifest.ts";
import type { Problem } from "../../host/problem.ts";
import {
  bindTemplate,
  expandBound,
  type BoundEntry,
  type SpreadValues,
  type Template,
} from "./template.ts";

export interface BoundRunner {
  config: RunnerConfig;
  run: BoundEntry[];
  exists?: BoundEntry[];
  install?: BoundEntry[];
  stop?: BoundEntry[];
}

export type TemplateKind = "run" | "exists" | "install" | "stop";

export function candidateConfigs(
  manifest: RunnerManifest,
  manifestFile: string,
  runnerConfigs: RunnerConfigs,
): { configs: RunnerConfig[] } | { error: Problem } {
  const known = () => [...runnerConfigs.configs.keys()].join(", ");
  if (manifest.runnerConfig !== undefined) {
    const config = runnerConfigs.configs.get(manifest.runnerConfig);
    if (!config)
      return {
        error: runnerProblem(
          manifestFile,
          `runner_config: "${manifest.runnerConfig}" is not a runner config (known: ${known()})`,
        ),
      };
    const isContainer = config.engine !== undefined;
    if (isContainer !== (manifest.runner === "container"))
      return {
        error: runnerProblem(
          manifestFile,
          `runner_config: "${config.name}" is a ${isContainer ? "container" : "native"} runner config but runner is ${manifest.runner}`,
        ),
      };
    return { configs: [config] };
  }
  if (manifest.runner === "native") {
    const native = runnerConfigs.configs.get("native");
    if (!native)
      return { error: runnerProblem(manifestFile, 'runner: no "native" runner config is defined') };
    return { configs: [native] };
  }
  const configs = ENGINE_CONFIGS.flatMap((e) => runnerConfigs.configs.get(e.config) ?? []);
  if (configs.length === 0)
    return {
      error: runnerProblem(
        manifestFile,
        "runner: no docker-config or podman-config runner config is defined",
      ),
    };
  return { configs };
}

export function bindRunner(
  manifest: RunnerManifest,
  manifestFile: string,
  config: RunnerConfig,
  workingDir: string,
): BoundRunner | { error: Problem } {
  const values = {
    working_dir: workingDir,
    plugin_dir: path.dirname(manifestFile),
    mount_readonly: manifest.mount ? String(!manifest.mount.write) : undefined,
    network_none: manifest.network ? undefined : "none",
  };
  const bind = (
    template: Template | undefined,
    field: string,
  ): { bound?: BoundEntry[]; error?: Problem } => {
    if (!template) return {};
    const r = bindTemplate(template, { manifest: manifest.raw, values });
    if ("error" in r)
      return {
        error: runnerProblem(
          manifestFile,
          `runner config "${config.name}" (${config.file}) ${field}${r.error}`,
        ),
      };
    return r;
  };
  const run = bind(config.run, "command_run");
  const exists = bind(config.exists, "command_exists");
  const install = bind(config.install, "command_install");
  const stop = bind(config.stop, "command_stop");
  const error = run.error ?? exists.error ?? install.error ?? stop.error;
  if (error !== undefined) return { error };
  return {
    config,
    run: run.bound ?? [],
    exists: exists.bound,
    install: install.bound,
    stop: stop.bound,
  };
}

/** One of the runner's command lines for one call; undefined when the config has none. */
export function argvOf(
  runner: BoundRunner,
  kind: TemplateKind,
  values: SpreadValues,
): string[] | undefined {
  const bound = runner[kind];
  return bound && expandBound(bound, values);
}

/** `{run_name}` of one call: unique, and a valid container name. */
export function newRunName(plugin: string): string {
  return `islet-${plugin.replace(/[^A-Za-z0-9_.-]/g, "-")}-${randomBytes(4).toString("hex")}`;
}
