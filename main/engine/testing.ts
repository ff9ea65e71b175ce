/**
 * Test support for plugins end to end: real plugin folders in a temporary home, the real engine
 * (bundling, isolates, hooks, tools, commands) and a loopback model server.
 */
import { cpSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentEvent } from "../turn/events.ts";
import { createEngine } from "./bootstrap.ts";
import type { Conversation, Engine } from "./engine.ts";
import {
  startFakeOpenAI,
  type FakeOpenAIOptions,
  type FakeServer,
  type ScriptedResponse,
} from "../providers/testing/index.ts";
import { formatProblem, type Problem } from "../host/problem.ts";
import { YES_FOR_THIS_RUN, type QuestionPort } from "../host/questions.ts";
import type { PluginFlags } from "../code-plugins/loader/index.ts";
import type { SandboxLimits } from "../sandbox/types.ts";
import { tempDir, type TempDir } from "../code-plugins/loader/testing.ts";

export interface PluginFiles {
  /** plugin.yaml text (default: a description line). */
  yaml?: string;
  /** index.ts source. */
  code: string;
  /** Extra files relative to the plugin folder. */
  files?: Record<string, string>;
}

export interface PluginHarness {
  home: string;
  workdir: string;
  pluginsDir: string;
  engine: Engine;
  conversation: Conversation;
  server: FakeServer;
  events: AgentEvent[];
  /** The engine's warnings as the CLI prints them (formatProblem)… */
  warnings: string[];
  /** …and as they came (what the bridge sends). */
  problems: Problem[];
  of<T extends AgentEvent["type"]>(type: T): Extract<AgentEvent, { type: T }>[];
  /** The messages a chat request carried (OpenAI wire shape). */
  sent(index: number): { role: string; content: string; tool_call_id?: string }[];
  write(plugin: string, files: PluginFiles): Promise<void>;
  close(): Promise<void>;
}

export async function writePlugin(dir: string, files: PluginFiles): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "plugin.yaml"), files.yaml ?? `description: "test plugin"\n`);
  await writeFile(path.join(dir, "index.ts"), files.code);
  for (const [rel, text] of Object.entries(files.files ?? {})) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
}

export async function startPluginHarness(opts: {
  plugins: Record<string, PluginFiles>;
  script?: ScriptedResponse[];
  flags?: PluginFlags;
  /** features/plugins.yaml text for the global home. */
  features?: string;
  env?: Record<string, string>;
  /** Sandbox limits (default: a 1 s call budget so runaway-plugin tests stay quick). */
  limits?: Partial<SandboxLimits>;
  /** Agent files (config/agents/NAME.md text) in the global home. */
  agents?: Record<string, string>;
  /** Agent the conversation starts with (default: default). */
  agent?: string;
  /** Plugin folder layout: name → path under plugins/ (default: the name). */
  layout?: Record<string, string>;
  /** Who answers permission requests (default: yes for this run, as `--yes`). */
  questions?: QuestionPort;
  /** Plugins of the workspace's own `.islet/plugins/` (name → files). */
  projectPlugins?: Record<string, PluginFiles>;
  /** The fake model server's options (its models' windows: `max_model_len`). */
  server?: FakeOpenAIOptions;
  /** More files of the global home (path relative to it → text): Claude plugins, skills… */
  homeFiles?: Record<string, string>;
}): Promise<PluginHarness> {
  const root = await mkdtemp(path.join(tmpdir(), "islet-plugins-"));
  const home = path.join(root, "home");
  const workdir = path.join(root, "work");
  const pluginsDir = path.join(home, "plugins");
  await mkdir(workdir, { recursive: true });
  for (const [name, files] of Object.entries(opts.plugins))
    await writePlugin(path.join(pluginsDir, opts.layout?.[name] ?? name), files);
  for (const [name, files] of Object.entries(opts.projectPlugins ?? {}))
    await writePlugin(path.join(workdir, ".islet", "plugins", name), files);
  for (const [name, text] of Object.entries(opts.agents ?? {})) {
    await mkdir(path.join(home, "config", "agents"), { recursive: true });
    await writeFile(path.join(home, "config", "agents", `${name}.md`), text);
  }
  for (const [rel, text] of Object.entries(opts.homeFiles ?? {})) {
    await mkdir(path.dirname(path.join(home, rel)), { recursive: true });
    await writeFile(path.join(home, rel), text);
  }
  if (opts.features) {
    await mkdir(path.join(home, "config", "features"), { recursive: true });
    await writeFile(path.join(home, "config", "features", "plugins.yaml"), opts.features);
  }
  const server = await startFakeOpenAI(opts.script ?? [], opts.server);
  const events: AgentEvent[] = [];
  const warnings: string[] = [];
  const problems: Problem[] = [];
  const engine = await createEngine({
    home,
    workdir,
    env: opts.env ?? {},
    flags: { provider: "openai-compatible", baseUrl: server.url, model: "m" },
    // ISLET_TEST_PLUGIN_RUNTIME reruns plugin suites on another backend (scripts/test.js).
    plugins: opts.flags ?? { pluginRuntime: process.env.ISLET_TEST_PLUGIN_RUNTIME },
    pluginLimits: { callTimeoutMs: 1000, ...opts.limits },
    questions: opts.questions ?? YES_FOR_THIS_RUN,
    warn: (problem) => {
      problems.push(problem);
      warnings.push(formatProblem(problem));
    },
  });
  await engine.askPluginPermissions();
  const conversation = await engine.open({ agent: opts.agent, emit: (e) => events.push(e) });
  return {
    home,
    workdir,
    pluginsDir,
    engine,
    conversation,
    server,
    events,
    warnings,
    problems,
    of: <T extends AgentEvent["type"]>(type: T) =>
      events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type),
    sent: (i) =>
      (server.chatRequests[i].body as { messages: { role: string; content: string }[] }).messages,
    write: (plugin, files) => writePlugin(path.join(pluginsDir, plugin), files),
    async close() {
      await conversation.close();
      await engine.close();
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export interface EngineRig {
  /** The temporary root: `home/` is the global home, `work/` the workspace. */
  dirs: TempDir;
  model: FakeServer;
  engine: Engine;
  /** The engine's warnings as the CLI prints them. */
  warnings: string[];
  /** A new conversation, its events gathered in `events`. */
  open(): Promise<{ conv: Conversation; events: AgentEvent[] }>;
  /** Closes the engine and the model, and removes the folders. */
  close(): Promise<void>;
}

/**
 * The real engine on a temporary home and workspace holding `files` (paths under `home/` and
 * `work/`), its model the fake server answering with `script` (shell hook and Claude plugin
 * tests).
 */
export async function startEngineRig(opts: {
  prefix: string;
  files: Record<string, string>;
  /** Folders copied in before `files` are written: path under the root → the folder (a fixture). */
  copies?: Record<string, string>;
  script: ScriptedResponse[];
  /** Plugin flags (default: code and Claude Code plugins are not loaded). */
  plugins?: PluginFlags;
  /** Who answers the engine's questions (default: yes for this run, as `--yes`). */
  questions?: QuestionPort;
}): Promise<EngineRig> {
  const dirs = tempDir(opts.prefix);
  for (const [rel, from] of Object.entries(opts.copies ?? {}))
    cpSync(from, dirs.path(rel), { recursive: true });
  dirs.write(opts.files);
  const model = await startFakeOpenAI(opts.script);
  const warnings: string[] = [];
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    ...(opts.plugins ? { plugins: opts.plugins } : {}),
    questions: opts.questions ?? YES_FOR_THIS_RUN,
    flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
    warn: (p) => warnings.push(formatProblem(p)),
  });
  return {
    dirs,
    model,
    engine,
    warnings,
    async open() {
      const events: AgentEvent[] = [];
      const conv = await engine.open({ emit: (e) => events.push(e) });
      return { conv, events };
    },
    async close() {
      await engine.close();
      await model.close();
      dirs.remove();
    },
  };
}

/**
 * The real engine as a person's own files configure it: `files` (paths under the root:
 * `home/config/providers.yaml`, `work/…`) and no flags, so providers.yaml chooses the model.
 * `close` also closes `closeAlso` (the model server the files point at).
 */
export async function startConfiguredEngine(
  prefix: string,
  files: Record<string, string>,
  closeAlso: { close(): Promise<void> },
): Promise<{ engine: Engine; dirs: TempDir; close(): Promise<void> }> {
  const dirs = tempDir(prefix);
  dirs.write(files);
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    plugins: {},
    flags: {},
    warn: () => {},
  });
  return {
    engine,
    dirs,
    async close() {
      await engine.close();
      await closeAlso.close();
      dirs.remove();
    },
  };
}
