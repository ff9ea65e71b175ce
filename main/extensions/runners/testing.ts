/**
 * For the runner plugins' tests: a temporary global home and workspace, plugins and scripts
 * written into them, the source over them, and a real ContributionRegistrar to activate into.
 */
import { readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Homes } from "../../config/homes.ts";
import { executeToolCall, type ToolResult } from "../../tools/executor.ts";
import { newToolSessionState, type Tool } from "../../tools/types.ts";
import { Contributions } from "../../contributions/contributions.ts";
import type { ConfirmInstall } from "./health.ts";
import type { RunnerPlugin } from "./plugin.ts";
import { RunnerPluginSource } from "./source.ts";
import { formatProblem } from "../../host/problem.ts";

export interface RunnerWorld {
  root: string;
  homes: Homes;
  /** Writes an executable script (or any file) at an absolute path or under root. */
  script(relative: string, body: string): Promise<string>;
  /** Writes `<global home>/plugins/NAME/<file>` (manifest.json takes an object). */
  plugin(name: string, manifest: unknown, file?: string): Promise<string>;
  source(opts?: {
    env?: NodeJS.ProcessEnv;
    confirmInstall?: ConfirmInstall;
    trustedProject?: boolean;
  }): RunnerPluginSource;
  cleanup(): Promise<void>;
}

export async function runnerWorld(): Promise<RunnerWorld> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "islet-runners-")));
  const homes: Homes = {
    global: path.join(root, "home"),
    project: path.join(root, "work", ".islet"),
    workdir: path.join(root, "work"),
  };
  await mkdir(homes.workdir, { recursive: true });
  await mkdir(path.join(homes.global, "plugins"), { recursive: true });
  const write = async (file: string, body: string) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, body);
    return file;
  };
  return {
    root,
    homes,
    async script(relative, body) {
      const file = await write(path.resolve(root, relative), body);
      await chmod(file, 0o755);
      return file;
    },
    plugin(name, manifest, file = "manifest.json") {
      const body = typeof manifest === "string" ? manifest : JSON.stringify(manifest, null, 2);
      return write(path.join(homes.global, "plugins", name, file), body);
    },
    source(opts = {}) {
      return new RunnerPluginSource({
        homes,
        flags: { trustedProject: opts.trustedProject },
        env: opts.env,
        confirmInstall: opts.confirmInstall,
      });
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** Discovers, finds `name`, activates it into a fresh engine-like registry; returns its tool. */
export async function activated(
  source: RunnerPluginSource,
  name: string,
): Promise<{ plugin: RunnerPlugin; tool: Tool; contributions: Contributions }> {
  const { plugins, problems } = await source.discover();
  const plugin = plugins.find((p) => p.name === name);
  if (!plugin) throw new Error(`no plugin ${name}: ${problems.map(formatProblem).join(" | ")}`);
  const contributions = new Contributions();
  await plugin.activate(contributions.registrar());
  const tool = contributions.tools.get(name);
  if (!tool) throw new Error(`${name} registered no tool`);
  return { plugin, tool, contributions };
}

/** Calls a tool as the turn loop does (validation, time limit, output limit). */
export function call(
  tool: Tool,
  args: unknown,
  workdir: string,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<ToolResult> {
  return executeToolCall(tool, args, {
    workdir,
    signal: opts.signal ?? new AbortController().signal,
    state: newToolSessionState(),
    timeoutMs: opts.timeoutMs ?? 60_000,
  });
}

/** True while a process with this pid exists (and is not a zombie). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return true;
  }
}
