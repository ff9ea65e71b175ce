/**
 * CLI-tool runner plugins (seed 004, SPEC §8): folders in the plugins dirs holding the seed's
 * `manifest.json`, or a `plugin.yaml` with `runner:`. Discovery reads manifests and runner
 * configs and binds every template, so what is wrong is a load problem naming file and field;
 * nothing runs until a plugin is activated (main/extensions/activation/). A project's plugins in
 * an untrusted folder are listed as held back and refuse to activate; a project's runner configs
 * are read only when it is trusted (SPEC §6).
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Homes } from "../../config/homes.ts";
import { isSelected } from "../../code-plugins/loader/discover.ts";
import {
  loadPluginFeatures,
  selectionFor,
  type PluginFlags,
} from "../../code-plugins/loader/features.ts";
import {
  findPluginFolders,
  MANIFEST_NAME,
  RUNNER_MANIFEST,
} from "../../code-plugins/loader/walk.ts";
import type { ActivatableSource } from "../activation/activatable.ts";
import { bindRunner, candidateConfigs, type BoundRunner } from "./bind.ts";
import { loadRunnerConfigs } from "./configs.ts";
import type { ConfirmInstall } from "./health.ts";
import { readRunnerManifest, runnerProblem } from "./manifest.ts";
import { RunnerPlugin, runnerRunFiles } from "./plugin.ts";
import { compileParameters } from "./tool.ts";
import type { Problem } from "../../host/problem.ts";

export interface RunnerPluginSourceOptions {
  homes: Homes;
  /** Workspace trust and --without-plugins, as code plugins get them (read at each discovery). */
  flags?: PluginFlags | (() => PluginFlags);
  /**
   * Asked before a runner's `command_install` runs (docker pull …). Without it, a failed check
   * is an error saying what to run.
   */
  confirmInstall?: ConfirmInstall;
  /** The environment commands run with (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Warnings (unknown fields…). */
  warn?(problem: Problem): void;
  /** Tests: another built-in runner-configs.json. */
  builtinConfigsFile?: string;
}

export class RunnerPluginSource implements ActivatableSource {
  readonly id = "runner-plugins";
  private readonly opts: RunnerPluginSourceOptions;

  constructor(opts: RunnerPluginSourceOptions) {
    this.opts = opts;
  }

  async discover(): Promise<{ plugins: RunnerPlugin[]; problems: Problem[] }> {
    const { homes } = this.opts;
    const given = this.opts.flags ?? {};
    const flags = typeof given === "function" ? given() : given;
    const warn = this.opts.warn ?? (() => {});
    const trusted = flags.trustedProject === true;
    const problems: Problem[] = [];
    const { features } = await loadPluginFeatures(homes, flags);
    if (features.withoutPlugins) return { plugins: [], problems };
    const configs = await loadRunnerConfigs({
      homes,
      trustedProject: trusted,
      builtinFile: this.opts.builtinConfigsFile,
    });
    problems.push(...configs.problems);
    configs.warnings.forEach(warn);
    const host = {
      workingDir: homes.workdir,
      env: this.opts.env ?? process.env,
      confirmInstall: this.opts.confirmInstall,
    };
    const found: RunnerPlugin[] = [];
    for (const where of features.dirs) {
      const walked = await findPluginFolders(where.dir);
      for (const dir of walked.runnerFolders) {
        const file = await manifestFileOf(dir);
        const read = await readRunnerManifest(file, { workingDir: homes.workdir });
        read.warnings.forEach(warn);
        if (!read.ok) {
          problems.push(...read.errors);
          continue;
        }
        const { manifest } = read;
        const { include, exclude } = selectionFor(features, where.source);
        if (!isSelected(manifest.name, include, exclude)) continue;
        const error = (problem: Problem) => problems.push(problem);
        const candidates = candidateConfigs(manifest, file, configs);
        if ("error" in candidates) {
          error(candidates.error);
          continue;
        }
        const runners: BoundRunner[] = [];
        for (const config of candidates.configs) {
          const bound = bindRunner(manifest, file, config, homes.workdir);
          if ("error" in bound) error(bound.error);
          else runners.push(bound);
        }
        const parameters = compileParameters(manifest, file);
        if ("error" in parameters) error(parameters.error);
        if (runners.length !== candidates.configs.length || "error" in parameters) continue;
        found.push(
          new RunnerPlugin({
            manifest,
            manifestFile: file,
            runners,
            parameters,
            runFiles: await runnerRunFiles(dir, manifest),
            scope: where.source,
            heldBack: where.source === "project" && !trusted,
            host,
          }),
        );
      }
    }
    return { plugins: withoutDuplicates(found, problems), problems };
  }
}

/** plugin.yaml when there is one (the walk saw its `runner:`), else the seed's manifest.json. */
async function manifestFileOf(dir: string): Promise<string> {
  const yaml = path.join(dir, MANIFEST_NAME);
  const isFile = await stat(yaml).then(
    (s) => s.isFile(),
    () => false,
  );
  return isFile ? yaml : path.join(dir, RUNNER_MANIFEST);
}

/** Two plugins of one name: both dropped, one problem names both (tool names must be unique). */
function withoutDuplicates(plugins: RunnerPlugin[], problems: Problem[]): RunnerPlugin[] {
  const byName = new Map<string, RunnerPlugin[]>();
  for (const p of plugins) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  const kept: RunnerPlugin[] = [];
  for (const [name, group] of byName) {
    if (group.length === 1) {
      kept.push(group[0]);
      continue;
    }
    problems.push(
      runnerProblem(
        group[1].manifestFile,
        `duplicate runner plugin name "${name}": ${group.map((p) => p.manifestFile).join(" and ")} (rename one with name: in its manifest)`,
      ),
    );
  }
  return kept.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
