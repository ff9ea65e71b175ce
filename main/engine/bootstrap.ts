/** Builds an Engine from host options (CLI flags, `islet serve`, the desktop app's settings). */
import path from "node:path";
import { loadEnvFile } from "../config/env-file.ts";
import { loadFrontmatterCache, saveFrontmatterCache } from "../config/frontmatter-cache.ts";
import { loadMarkdownIndex, saveMarkdownIndex } from "../config/markdown-index.ts";
import { resolveHomes } from "../config/homes.ts";
import type { DetectedServer, ResolveFlags } from "../providers/index.ts";
import type { QuestionPort } from "../host/questions.ts";
import type { SecretStore } from "../host/secrets.ts";
import { resolveWorkspaceTrust } from "../trust/workspace-trust.ts";
import type { ThinkMode } from "../core/types.ts";
import type { PluginFlags } from "../code-plugins/loader/index.ts";
import { sharingWalks } from "../code-plugins/loader/walk.ts";
import type { SandboxLimits } from "../sandbox/types.ts";
import type { ChosenBackend } from "../code-plugins/setup.ts";
import { Engine } from "./engine.ts";
import { ModelSource } from "./model-source.ts";
import type { Problem } from "../host/problem.ts";
import { WORKSPACE_ENV_FILE } from "../config/workspace-files.ts";

export interface HostOptions {
  home?: string;
  workdir?: string;
  /** Explicit env file (must exist); otherwise `secrets.env` in the workdir if present. */
  envFile?: string;
  env?: NodeJS.ProcessEnv;
  flags?: ResolveFlags;
  /** Who answers the engine's questions (approval, workspace trust, permissions); missing: nobody. */
  questions?: QuestionPort;
  /** Keys the user stored in the app (the desktop's encrypted store); missing: none. */
  secrets?: SecretStore;
  maxSteps?: number;
  vars?: Record<string, string>;
  thinkMode?: ThinkMode;
  detect?: () => Promise<DetectedServer[]>;
  /** Plugin flags (--without-plugins, --unsafe-plugins, --plugin-runtime); absent: plugins are not loaded. */
  plugins?: PluginFlags;
  /** Sandbox limits for plugin calls (tests lower the time budget). */
  pluginLimits?: Partial<SandboxLimits>;
  /** The host's sandbox choice when nobody configured one (the desktop app's probe verdict). */
  hostBackend?: ChosenBackend;
  warn(problem: Problem): void;
}

export function createEngine(opts: HostOptions): Promise<Engine> {
  // Trust, Claude Code plugins, runners and code plugins all read the plugins dirs: once.
  return sharingWalks(() => startEngine(opts));
}

async function startEngine(opts: HostOptions): Promise<Engine> {
  const processEnv = opts.env ?? process.env;
  const homes = resolveHomes({ home: opts.home, workdir: opts.workdir, env: processEnv });
  // Commands, skills, agents and plugin.yaml files parsed at earlier starts are not parsed again
  // (loaded first: the trust check below already reads the plugins folders).
  const frontmatterCache = path.join(homes.global, "cache", "frontmatter.json");
  loadFrontmatterCache(frontmatterCache);
  // Markdown files unchanged since then are not even read (their bodies are, when used).
  const markdownIndex = path.join(homes.global, "cache", "markdown-index.json");
  loadMarkdownIndex(markdownIndex);
  const envFilePath = opts.envFile
    ? path.resolve(opts.envFile)
    : path.join(homes.workdir, WORKSPACE_ENV_FILE);
  const envFile = loadEnvFile(envFilePath, opts.envFile !== undefined);
  // Before anything reads the project's .islet/: what it may widen depends on it.
  const trust = await resolveWorkspaceTrust({ homes, questions: opts.questions, warn: opts.warn });
  // Like Node's own --env-file: variables already set in the environment win; keys stored in the
  // app come last (ModelSource adds them, and reads them again when Settings changes them).
  const models = new ModelSource({
    homes,
    trustedProject: trust.trusted,
    flags: opts.flags ?? {},
    baseEnv: { ...envFile, ...processEnv },
    secrets: opts.secrets,
    detect: opts.detect,
  });
  // A broken providers.yaml stops the start here, with its file and field.
  await models.configs();
  const env = await models.env();
  const engine = new Engine({
    homes,
    env,
    resolveModel: (agent) => models.resolve(agent),
    models,
    questions: opts.questions,
    maxSteps: opts.maxSteps,
    vars: opts.vars,
    thinkMode: opts.thinkMode,
    warn: opts.warn,
    trust,
    secretFiles: [envFilePath],
  });
  await engine.loadMcp();
  await engine.declarative.load(opts.plugins);
  if (opts.plugins)
    await engine.loadPlugins(opts.plugins, {
      limits: opts.pluginLimits,
      hostBackend: opts.hostBackend,
    });
  // loadPlugins loads the on-demand listing itself; without plugins other sources still list.
  else await engine.activation.load();
  void saveFrontmatterCache(frontmatterCache);
  void saveMarkdownIndex(markdownIndex);
  return engine;
}
