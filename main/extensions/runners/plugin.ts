/**
 * One runner plugin as an ActivatablePlugin: what the user consents to (command, where it runs,
 * mounts, network), and on activation the runner chosen (the manifest's config, or docker or
 * podman, whichever answers), the health check, auto-discovery once, then its tool. Deactivating
 * stops every process its calls started and waits until their trees are gone.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { ActivatablePlugin } from "../activation/activatable.ts";
import type { ContributionRegistrar } from "../../contributions/registrar.ts";
import type { HomeSource } from "../../code-plugins/loader/features.ts";
import { truncateOutput } from "../../tools/limits.ts";
import { argvOf, newRunName, type BoundRunner } from "./bind.ts";
import { detectContainerEngine, probeEngine } from "./container-engine.ts";
import { checkRunnerHealth, type ConfirmInstall } from "./health.ts";
import type { RunnerManifest } from "./manifest.ts";
import { commandText, runCheck } from "./probe.ts";
import { runnerTool, type RunnerToolOptions } from "./tool.ts";
import { changedFiles, runFilesDigest, runFilesOf, type RunFiles } from "../../trust/run-files.ts";

/** Auto-discovery output offered to the model, per entry. */
const DISCOVERY_MAX_CHARS = 4_000;
const DISCOVERY_TIMEOUT_MS = 120_000;

export interface RunnerPluginHost {
  workingDir: string;
  env: NodeJS.ProcessEnv;
  confirmInstall?: ConfirmInstall;
}

export class RunnerPlugin implements ActivatablePlugin {
  readonly kind = "runner" as const;
  readonly name: string;
  readonly description: string;
  readonly manifestFile: string;
  readonly consentDetails: readonly string[];
  readonly fingerprint: string;
  /** What its commands run (main/trust/run-files.ts), part of the fingerprint. */
  readonly runFiles: RunFiles;
  /** The home it was found in. */
  readonly scope: HomeSource;
  /** A project's plugin in a folder the user has not trusted: listed, never activated. */
  readonly heldBack: boolean;
  readonly manifest: RunnerManifest;
  /** The configs it may run with, bound at load: one, or docker's and podman's. */
  readonly runners: readonly BoundRunner[];
  private readonly parameters: RunnerToolOptions["parameters"];
  private readonly host: RunnerPluginHost;
  private stopper = new AbortController();
  private readonly running = new Set<Promise<unknown>>();
  private readonly discovered = new Map<string, string>();

  constructor(opts: {
    manifest: RunnerManifest;
    manifestFile: string;
    runners: BoundRunner[];
    parameters: RunnerToolOptions["parameters"];
    runFiles: RunFiles;
    scope: HomeSource;
    heldBack: boolean;
    host: RunnerPluginHost;
  }) {
    this.manifest = opts.manifest;
    this.name = opts.manifest.name;
    this.description = opts.manifest.description;
    this.manifestFile = opts.manifestFile;
    this.runners = opts.runners;
    this.parameters = opts.parameters;
    this.scope = opts.scope;
    this.heldBack = opts.heldBack;
    this.host = opts.host;
    this.consentDetails = consentLines(opts.manifest, opts.runners, opts.host.workingDir);
    this.runFiles = opts.runFiles;
    this.fingerprint = fingerprintOf(opts.manifest, opts.runners, opts.runFiles);
  }

  async activate(registrar: ContributionRegistrar, signal?: AbortSignal): Promise<void> {
    if (this.heldBack)
      throw new Error(
        `${this.name}: ${this.host.workingDir} is not trusted, so its runner plugins stay off: trust it with \`islet trust add\``,
      );
    // What was shown and allowed is what runs: a script swapped since it was listed is refused.
    const now = await runnerRunFiles(path.dirname(this.manifestFile), this.manifest);
    const changed = changedFiles(this.runFiles, now);
    if (changed.length > 0)
      throw new Error(
        `${this.name}: ${changed.join(", ")} changed since it was listed: ask for it again`,
      );
    const runner = await this.chooseRunner(signal);
    const { env, workingDir: cwd, confirmInstall } = this.host;
    const { manifest, manifestFile } = this;
    await checkRunnerHealth({ manifest, manifestFile, runner, env, cwd, confirmInstall, signal });
    const discovered = await this.autoDiscover(runner, signal);
    // A fresh stop signal per activation: the last deactivation's has fired.
    if (this.stopper.signal.aborted) this.stopper = new AbortController();
    registrar.tool(
      runnerTool({
        manifest,
        runner,
        parameters: this.parameters,
        discovered,
        cwd,
        env,
        stopped: this.stopper.signal,
        track: (work) => this.track(work),
        changedSinceAllowed: async () =>
          changedFiles(this.runFiles, await runnerRunFiles(path.dirname(manifestFile), manifest)),
      }),
    );
  }

  async deactivate(): Promise<void> {
    this.stopper.abort();
    await Promise.allSettled([...this.running]);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    void work.finally(() => this.running.delete(work)).catch(() => {});
    return work;
  }

  private async chooseRunner(signal?: AbortSignal): Promise<BoundRunner> {
    const opts = { env: this.host.env, cwd: this.host.workingDir, signal };
    const fix = `or set runner: native in ${this.manifestFile}`;
    if (this.runners.length === 1) {
      const [runner] = this.runners;
      const engine = runner.config.engine;
      if (engine === undefined) return runner;
      const probe = await probeEngine(engine, opts);
      if (!probe.answers)
        throw new Error(
          `${this.name}: ${probe.why}: ${probe.installed ? "start it" : "install it"}, ${fix}`,
        );
      return runner;
    }
    const { found, probes } = await detectContainerEngine(opts);
    const runner = found && this.runners.find((r) => r.config.name === found.config);
    if (!runner)
      throw new Error(
        `${this.name}: no container engine answers (${probes.map((p) => p.why).join("; ")}): start docker or podman, ${fix}`,
      );
    return runner;
  }

  /** Each `auto_discovery` command once per runner (cached), as text for the tool description. */
  private async autoDiscover(runner: BoundRunner, signal?: AbortSignal): Promise<string> {
    const cached = this.discovered.get(runner.config.name);
    if (cached !== undefined) return cached;
    let text = "";
    for (const entry of this.manifest.autoDiscovery) {
      const values = {
        command: this.manifest.command,
        args: entry.args,
        run_name: newRunName(this.name),
      };
      const argv = argvOf(runner, "run", values) ?? [];
      const shown = commandText([...this.manifest.command, ...entry.args]);
      const run = await runCheck(argv, {
        env: this.host.env,
        cwd: this.host.workingDir,
        timeoutMs: DISCOVERY_TIMEOUT_MS,
        signal,
      });
      // A discovery run stopped on its time limit may leave its container behind.
      const stop = run.result?.aborted !== undefined ? argvOf(runner, "stop", values) : undefined;
      if (stop)
        await runCheck(stop, { env: this.host.env, cwd: this.host.workingDir, timeoutMs: 30_000 });
      signal?.throwIfAborted();
      const about = entry.description ? ` (${entry.description})` : "";
      const output = run.result
        ? truncateOutput(run.result.output.trim(), DISCOVERY_MAX_CHARS)
        : "";
      text += run.ok
        ? `\n\nWhat \`${shown}\` printed${about}:\n${output}`
        : `\n\n\`${shown}\`${about} failed at activation: ${run.said}`;
    }
    this.discovered.set(runner.config.name, text);
    return text;
  }
}

function consentLines(
  manifest: RunnerManifest,
  runners: readonly BoundRunner[],
  workingDir: string,
): string[] {
  const command = commandText(manifest.command);
  const engines = runners.flatMap((r) => r.config.engine ?? []);
  const lines: string[] = [];
  if (manifest.runner === "native") {
    lines.push(
      `runs \`${command}\` natively in ${workingDir}, with your access to files, programs and the network`,
    );
  } else {
    lines.push(
      `runs \`${command}\` in container image ${manifest.image} (${engines.join(" or ")}, whichever answers)`,
    );
    const m = manifest.mount;
    lines.push(
      m
        ? `mounts ${m.hostPath} at ${m.path} (${m.write ? "read and write: it may change these files" : "read-only"})`
        : "mounts nothing from this computer",
    );
    lines.push(
      manifest.network
        ? "network: allowed (network: false in the manifest cuts it off)"
        : "network: none",
    );
  }
  for (const entry of manifest.autoDiscovery)
    lines.push(`runs \`${commandText([...manifest.command, ...entry.args])}\` once at activation`);
  const values = { command: manifest.command, args: [], run_name: "NAME" };
  const install = runners.map((r) => argvOf(r, "install", values)).find((argv) => argv);
  if (install) lines.push(`may run \`${commandText(install)}\` when the check fails (asks first)`);
  return lines;
}

/** The files a runner's commands run, from its folder (main/trust/run-files.ts has the rule). */
export function runnerRunFiles(dir: string, manifest: RunnerManifest): Promise<RunFiles> {
  const commands = [
    manifest.command,
    ...manifest.autoDiscovery.map((d) => [...manifest.command, ...d.args]),
  ];
  return runFilesOf(dir, commands, { walk: true });
}

function fingerprintOf(
  manifest: RunnerManifest,
  runners: readonly BoundRunner[],
  runFiles: RunFiles,
): string {
  const covered = {
    files: runFilesDigest(runFiles),
    command: manifest.command,
    runner: manifest.runner,
    image: manifest.image,
    mount: manifest.mount,
    network: manifest.network,
    discovery: manifest.autoDiscovery.map((d) => d.args),
    runners: runners.map((r) => ({
      config: r.config.name,
      run: r.run,
      exists: r.exists,
      install: r.install,
      stop: r.stop,
    })),
  };
  return createHash("sha256").update(JSON.stringify(covered)).digest("hex");
}
