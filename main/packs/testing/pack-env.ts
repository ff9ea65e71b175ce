/**
 * Test support for the pack manager: throwaway homes (global and project) with one plugin
 * already installed ("keeper"), an environment with no user git config, ssh keys or tokens, a
 * consent hook that records what it was asked, and a snapshot of every file under both plugins
 * dirs (dot-folders included) to prove a failure left nothing behind.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Homes } from "../../config/homes.ts";
import type { PackInstallQuestion, PackUpdateQuestion } from "../../host/questions.ts";
import { formatProblem } from "../../host/problem.ts";
import { loadPlugins } from "../../code-plugins/loader/index.ts";
import { packManager, type PackManager } from "../index.ts";
import type { PackOperationHooks, PackProgress } from "../types.ts";
import { pluginFiles, writeRepoFiles } from "./git-repos.ts";

export interface PackEnv {
  root: string;
  homes: Homes;
  /** <global home>/plugins and <workdir>/.islet/plugins. */
  globalPlugins: string;
  projectPlugins: string;
  /** A user home for git and ssh (HOME), with an empty .gitconfig. */
  userHome: string;
  env: NodeJS.ProcessEnv;
  manager(extraEnv?: Record<string, string>): PackManager;
  warnings: string[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function packEnv(): Promise<PackEnv> {
  const root = await mkdtemp(path.join(tmpdir(), "islet-packs-"));
  const homes: Homes = {
    global: path.join(root, "home"),
    project: path.join(root, "work", ".islet"),
    workdir: path.join(root, "work"),
  };
  const userHome = path.join(root, "user");
  await mkdir(userHome, { recursive: true });
  await writeFile(path.join(userHome, ".gitconfig"), "");
  const globalPlugins = path.join(homes.global, "plugins");
  const projectPlugins = path.join(homes.project, "plugins");
  await mkdir(projectPlugins, { recursive: true });
  await writeRepoFiles(globalPlugins, pluginFiles("keeper"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: userHome,
    GIT_CONFIG_GLOBAL: path.join(userHome, ".gitconfig"),
    GIT_CONFIG_NOSYSTEM: "1",
    npm_config_cache: path.join(root, "npm-cache"),
    npm_config_update_notifier: "false",
  };
  const warnings: string[] = [];
  const close = () => rm(root, { recursive: true, force: true });
  return {
    root,
    homes,
    globalPlugins,
    projectPlugins,
    userHome,
    env,
    warnings,
    manager: (extra = {}) =>
      packManager({
        homes,
        env: { ...env, ...extra },
        warn: (p) => warnings.push(formatProblem(p)),
      }),
    close,
    [Symbol.asyncDispose]: close,
  };
}

export type PackQuestion = PackInstallQuestion | PackUpdateQuestion;

/** Hooks that answer `answer` and keep every question and progress event. */
export function consenting(
  answer = true,
  extra: Partial<PackOperationHooks> = {},
): PackOperationHooks & { asked: PackQuestion[]; progressed: PackProgress[] } {
  const asked: PackQuestion[] = [];
  const progressed: PackProgress[] = [];
  return {
    asked,
    progressed,
    progress: (p) => progressed.push(p),
    consent: async (q) => {
      asked.push(q);
      return answer;
    },
    ...extra,
  };
}

/** Every path under `dir` (recursively, dot entries included), with file contents hashed in. */
export async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (d: string) => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(d, e.name);
      const rel = path.relative(dir, full);
      if (e.isDirectory()) {
        out.push(`${rel}/`);
        await visit(full);
      } else if (e.isFile()) out.push(`${rel} ${(await readFile(full)).length}`);
      else out.push(`${rel} @`);
    }
  };
  await visit(dir);
  return out.sort();
}

/** The state a failure must leave untouched: both plugins dirs and grants.json. */
export async function state(env: PackEnv): Promise<string[]> {
  const grants = await readFile(path.join(env.homes.global, "grants.json"), "utf8").catch(() => "");
  return [
    ...(await snapshot(env.globalPlugins)).map((l) => `global ${l}`),
    ...(await snapshot(env.projectPlugins)).map((l) => `project ${l}`),
    `grants ${grants}`,
  ];
}

/** The names of the plugins that load from both homes, and the load errors. */
export async function loads(env: PackEnv): Promise<{ names: string[]; errors: string[] }> {
  const load = await loadPlugins(env.homes, { trustedProject: true });
  return { names: load.plugins.map((p) => p.name), errors: load.errors.map(formatProblem) };
}
