/**
 * The health check before a runner plugin's first use (seed 004 §2): the program its runner
 * starts is installed, and the config's `command_exists` (the image is there) succeeds. When it
 * does not, `command_install` (docker pull …) runs only if the user agrees through
 * `confirmInstall`; otherwise the error is one line saying what to run.
 */
import { argvOf, newRunName, type BoundRunner } from "./bind.ts";
import type { RunnerManifest } from "./manifest.ts";
import { commandText, findProgram, runCheck } from "./probe.ts";

/** What the user is asked before an install command runs. */
export interface InstallRequest {
  plugin: string;
  /** The command line that would run, e.g. `docker pull mcr.microsoft.com/dotnet/sdk:6.0`. */
  command: string;
  /** Why: the check that failed and what it said. */
  reason: string;
}

/** Asks the user; true = run it. Rejecting (or no function at all) counts as no. */
export type ConfirmInstall = (request: InstallRequest, signal?: AbortSignal) => Promise<boolean>;

const EXISTS_TIMEOUT_MS = 60_000;
const INSTALL_TIMEOUT_MS = 30 * 60_000;

export async function checkRunnerHealth(opts: {
  manifest: RunnerManifest;
  manifestFile: string;
  runner: BoundRunner;
  env: NodeJS.ProcessEnv;
  cwd: string;
  confirmInstall?: ConfirmInstall;
  signal?: AbortSignal;
}): Promise<void> {
  const { manifest, runner } = opts;
  const name = manifest.name;
  const values = { command: manifest.command, args: [], run_name: newRunName(name) };
  const program = (argvOf(runner, "run", values) ?? [])[0];
  if (!(await findProgram(program, opts.env, opts.cwd))) {
    if (runner.config.engine !== undefined)
      throw new Error(
        `${name}: ${program} is not installed: install ${program} (or podman/docker), or set runner: native in ${opts.manifestFile}`,
      );
    throw new Error(
      `${name}: "${program}" is not installed (not found on PATH; command in ${opts.manifestFile}): install it, or use runner: container with an image that has it`,
    );
  }
  const existsArgv = argvOf(runner, "exists", values);
  if (!existsArgv) return;
  const check = () =>
    runCheck(existsArgv, { ...opts, timeoutMs: EXISTS_TIMEOUT_MS, signal: opts.signal });
  const first = await check();
  if (first.ok) return;
  const failed = `\`${commandText(existsArgv)}\` failed${first.said ? ` (${first.said})` : ""}`;
  const installArgv = argvOf(runner, "install", values);
  if (!installArgv)
    throw new Error(
      `${name}: ${failed}: fix what it reports (runner config "${runner.config.name}"), then activate it again`,
    );
  const installText = commandText(installArgv);
  const agreed = opts.confirmInstall
    ? await opts
        .confirmInstall({ plugin: name, command: installText, reason: failed }, opts.signal)
        .catch(() => false)
    : false;
  if (!agreed)
    throw new Error(`${name}: ${failed}: run \`${installText}\`, then activate it again`);
  const install = await runCheck(installArgv, {
    ...opts,
    timeoutMs: INSTALL_TIMEOUT_MS,
    signal: opts.signal,
  });
  if (!install.ok)
    throw new Error(
      `${name}: \`${installText}\` failed${install.said ? ` (${install.said})` : ""}: run it yourself to see why`,
    );
  const second = await check();
  if (!second.ok)
    throw new Error(`${name}: ${failed} even after \`${installText}\`: check the runner config`);
}
