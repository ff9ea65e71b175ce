/**
 * The engine as hosts use it (CLI, `islet serve`, the desktop app): configuration from the homes,
 * agents, tools, commands, approvals and sessions, and a handle per open conversation.
 */
import { loadAgents } from "../agents/load.ts";
import type { AgentConfig } from "../agents/definition.ts";
import type { EventSink } from "../agent/events.ts";
import { NO_HOOKS } from "../agent/hooks/types.ts";
import { createPluginRuntime, type ChosenBackend } from "../plugins/setup.ts";
import type { PluginFlags } from "../plugins/loader/index.ts";
import type { PluginRuntime, ReloadReport } from "../plugins/runtime/runtime.ts";
import { watchPlugins, type PluginWatcher } from "../plugins/runtime/watch.ts";
import type { SandboxLimits } from "../plugins/sandbox/types.ts";
import { AgentSession, type RunOutcome } from "../agent/loop.ts";
import type { EngineDeps, ResolvedModel } from "../agent/state.ts";
import { registerBuiltinCommands } from "../commands/builtin.ts";
import { CommandRegistry } from "../commands/registry.ts";
import { parseCommandLine } from "../commands/types.ts";
import { homeLayers, type Homes } from "../config/homes.ts";
import { SessionStore } from "../sessions/store.ts";
import type { QuestionPort } from "../host/questions.ts";
import { ApprovalPolicy } from "../tools/approval.ts";
import { builtinTools } from "../tools/index.ts";
import { ToolRegistry } from "../tools/registry.ts";
import type { ThinkMode } from "../../plugins/sdk/index.ts";
import { APP_VERSION } from "../version.ts";
import { storeSink } from "./session-sink.ts";

export interface EngineOptions {
  homes: Homes;
  /** Process environment merged with the env file (keys for providers). */
  env: Record<string, string | undefined>;
  resolveModel(agent: AgentConfig): Promise<ResolvedModel>;
  /**
   * Who answers the engine's questions (tool approval unless a conversation has its own port,
   * plugin permissions, workspace trust). Missing: nobody, every question gets its safe default.
   */
  questions?: QuestionPort;
  maxSteps?: number;
  vars?: Record<string, string>;
  thinkMode?: ThinkMode;
  /** One-line reports about broken configuration (they never stop the engine). */
  warn(line: string): void;
}

export type TurnResult =
  | { kind: "turn"; outcome: RunOutcome }
  | { kind: "command"; name: string; output: string; silent: boolean; outcome?: RunOutcome };

export class Engine {
  readonly homes: Homes;
  readonly agents: Map<string, AgentConfig>;
  readonly tools = new ToolRegistry();
  readonly commands = new CommandRegistry();
  readonly store: SessionStore;
  readonly approvals: ApprovalPolicy;
  /** Null until loadPlugins() (and with --without-plugins nothing is discovered). */
  plugins: PluginRuntime | null = null;
  private watcher: PluginWatcher | null = null;
  private readonly opts: EngineOptions;

  constructor(opts: EngineOptions) {
    this.opts = opts;
    this.homes = opts.homes;
    const loaded = loadAgents(homeLayers(opts.homes));
    for (const line of loaded.errors) opts.warn(line);
    this.agents = loaded.agents;
    for (const tool of builtinTools()) this.tools.register(tool);
    registerBuiltinCommands(this.commands);
    this.store = SessionStore.forHome(opts.homes.global, { appVersion: APP_VERSION });
    this.approvals = new ApprovalPolicy({
      globalHome: opts.homes.global,
      workdir: opts.homes.workdir,
      warn: opts.warn,
    });
  }

  /** Discovers, bundles and loads the plugins; their hooks, tools and commands join the engine. */
  async loadPlugins(
    flags: PluginFlags,
    opts: {
      limits?: Partial<SandboxLimits>;
      hostBackend?: ChosenBackend;
      onReload?: (report: ReloadReport) => void;
    } = {},
  ): Promise<PluginRuntime> {
    this.plugins?.dispose();
    this.plugins = await createPluginRuntime({
      homes: this.homes,
      flags,
      env: this.opts.env,
      tools: this.tools,
      commands: this.commands,
      contextFallback: () =>
        new AgentSession(
          this.deps(() => {}, "", undefined),
          { agent: "default", sessionId: "" },
        ).context(),
      warn: this.opts.warn,
      limits: opts.limits,
      hostBackend: opts.hostBackend,
      onReload: opts.onReload,
    });
    // `once` is per session: remember what fired in the session file so a resume keeps it.
    this.plugins.once.onMark = (session, plugin, timing) => {
      if (!session) return;
      try {
        this.store.append(session, { t: "state", key: `once:${plugin}:${timing}`, value: true });
      } catch (err) {
        this.opts.warn(`could not save once-state for ${plugin}: ${(err as Error).message}`);
      }
    };
    return this.plugins;
  }

  /** Hot reload: watch the plugins folders (the app and `islet serve`; not needed for one-shot runs). */
  async watchPlugins(onReload?: (reports: ReloadReport[]) => void): Promise<void> {
    if (!this.plugins || this.watcher) return;
    this.watcher = watchPlugins(this.plugins, {
      onReload,
      onError: (e) => this.opts.warn(`plugin watcher: ${e.message}`),
    });
    await this.watcher.ready;
  }

  async close(): Promise<void> {
    await this.watcher?.close();
    this.watcher = null;
    this.plugins?.dispose();
    this.plugins = null;
    await this.store.close();
  }

  agent(name: string): AgentConfig {
    const agent = this.agents.get(name);
    if (!agent)
      throw new Error(
        `unknown agent "${name}"; known agents: ${[...this.agents.keys()].join(", ")}`,
      );
    return agent;
  }

  /**
   * A new conversation (its file is created once the model is known) or a saved one. `questions`:
   * who approves this conversation's tool calls (the UI client that owns it); else the engine's.
   */
  async open(opts: {
    sessionId?: string;
    agent?: string;
    emit: EventSink;
    questions?: QuestionPort;
  }): Promise<Conversation> {
    if (opts.sessionId) {
      const id = await this.store.resolve(opts.sessionId);
      const saved = await this.store.load(id);
      for (const w of saved.warnings) this.opts.warn(w);
      this.plugins?.once.restore(id, saved.state);
      const agentName = opts.agent ?? (this.agents.has(saved.agent) ? saved.agent : "default");
      this.agent(agentName);
      const session = new AgentSession(this.deps(opts.emit, id, opts.questions), {
        agent: agentName,
        sessionId: id,
        title: saved.title,
        messages: saved.messages,
        todos: saved.todos,
        stats: saved.stats ?? undefined,
      });
      return new Conversation(this, session);
    }
    const agent = this.agent(opts.agent ?? "default");
    const resolved = await this.opts.resolveModel(agent);
    const id = await this.store.create({
      workdir: this.homes.workdir,
      agent: agent.name,
      provider: resolved.provider.name,
      model: resolved.model,
    });
    const session = new AgentSession(this.deps(opts.emit, id, opts.questions), {
      agent: agent.name,
      sessionId: id,
    });
    session.state.resolved = resolved;
    return new Conversation(this, session);
  }

  private deps(
    emit: EventSink,
    sessionId: string,
    questions: QuestionPort | undefined,
  ): EngineDeps {
    const session = sessionId
      ? storeSink(this.store, sessionId, (err) =>
          emit({
            type: "notice",
            source: "sessions",
            text: `could not save the session: ${err.message}`,
          }),
        )
      : null;
    return {
      workdir: this.homes.workdir,
      agents: this.agents,
      resolveModel: this.opts.resolveModel,
      tools: this.tools,
      hooks: this.plugins ?? NO_HOOKS,
      approve: (tool, args, signal) =>
        this.approvals.decide(tool.name, args, {
          questions: questions ?? this.opts.questions,
          signal,
        }),
      emit,
      session,
      compaction: { enabled: true, threshold: 80, keepLast: 6 },
      retry: { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 30_000 },
      promptFragments: () => [],
      vars: this.opts.vars ?? {},
      maxSteps: this.opts.maxSteps,
      thinkMode: this.opts.thinkMode ?? "off",
      toolTimeoutMs: 120_000,
      mcpServers: () => [],
    };
  }
}

/** One open conversation: prompts and slash commands go in, events come out through `emit`. */
export class Conversation {
  readonly session: AgentSession;
  private readonly engine: Engine;

  constructor(engine: Engine, session: AgentSession) {
    this.engine = engine;
    this.session = session;
  }

  get id(): string {
    return this.session.state.sessionId;
  }

  async submit(text: string): Promise<TurnResult> {
    const parsed = parseCommandLine(text);
    const command = parsed && this.engine.commands.get(parsed.name);
    if (!parsed) return { kind: "turn", outcome: await this.session.send(text) };
    if (!command) throw new Error(`unknown command /${parsed.name}; /help lists the commands`);
    const result = await command.run(parsed.args, {
      session: this.session,
      agentNames: () => [...this.engine.agents.keys()],
      toolNames: () => this.engine.tools.names(),
      context: () => this.session.context(),
    });
    const out: TurnResult = {
      kind: "command",
      name: parsed.name,
      output: result.output,
      silent: result.silent ?? false,
    };
    if (result.forward) out.outcome = await this.session.send(result.output);
    else await this.session.settle();
    return out;
  }

  stop(): void {
    this.session.stop();
  }

  async close(): Promise<void> {
    await this.engine.store.close(this.id);
  }
}
