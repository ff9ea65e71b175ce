/**
 * The engine as hosts use it (CLI, `islet serve`, the desktop app): configuration from the homes,
 * agents, tools, commands, approvals and sessions, and a handle per open conversation.
 */
import { DEFAULT_AGENT, type AgentConfig } from "../agents/definition.ts";
import type { AgentEvent, EventSink } from "../turn/events.ts";
import { createPluginRuntime, type ChosenBackend } from "../code-plugins/setup.ts";
import { ConsentGate } from "../code-plugins/consent/gate.ts";
import { PluginSourceFiles } from "../editor/source-files.ts";
import type { WorkspaceTrust } from "../trust/workspace-trust.ts";
import type { PluginFlags } from "../code-plugins/loader/index.ts";
import type { PluginRuntime, ReloadReport } from "../code-plugins/runtime/runtime.ts";
import { EngineWatchers } from "./watchers.ts";
import type { SandboxLimits } from "../sandbox/types.ts";
import { AgentSession } from "../turn/loop.ts";
import type { EngineDeps } from "../turn/state.ts";
import { registerBuiltinCommands } from "../commands/builtin.ts";
import type { Homes } from "../config/homes.ts";
import { Contributions } from "../contributions/contributions.ts";
import { outputStyleCommand, type OutputStyleDeps } from "../extensions/output-styles/command.ts";
import { McpDisabledStore } from "../mcp/disabled-store.ts";
import { McpSlowStarts } from "../mcp/slow-starts.ts";
import { McpManager } from "../extensions/mcp/manager.ts";
import { McpConfigSource } from "../extensions/mcp/source.ts";
import { DeclarativeExtensions } from "../extensions/declarative.ts";
import { SessionStore } from "../sessions/store.ts";
import type { QuestionPort } from "../host/questions.ts";
import { ApprovalPolicy } from "../tools/approval.ts";
import type { Conversation, ConversationPort } from "./conversation.ts";
import type { EngineOptions } from "./options.ts";
import { LiveTrust } from "./live-trust.ts";
import { engineOutputStyles } from "./output-styles.ts";
import { openConversation, type OpenPort, type OpenRequest } from "./open-conversation.ts";
import { builtinTools } from "../tools/index.ts";
import { APP_VERSION } from "../core/version.ts";
import { savedDisplayHistory } from "../sessions/history.ts";
import type { ModelSource } from "./model-source.ts";
import { unloadSharedRuntime } from "../providers/index.ts";
import { dryRunDeps, turnDeps } from "./turn-deps.ts";
import { approvedShell } from "../extensions/markdown/shell.ts";
import { HomeMarkdown } from "../extensions/markdown/home-source.ts";
import { registerSkillAndTaskTools } from "../extensions/markdown/engine-tools.ts";
import type { ActivationRegistry } from "../extensions/activation/registry.ts";
import { setupActivation } from "../extensions/activation/engine-activation.ts";

export { Conversation, type TurnResult } from "./conversation.ts";
export type { EngineOptions } from "./options.ts";

export class Engine {
  readonly homes: Homes;
  /** What built-ins, config files and extensions contributed; conversations read it at every call. */
  readonly extensions = new Contributions();
  readonly agents = this.extensions.agents;
  readonly tools = this.extensions.tools;
  readonly commands = this.extensions.commands;
  readonly store: SessionStore;
  readonly approvals: ApprovalPolicy;
  /** Null until loadPlugins() (and with --without-plugins nothing is discovered). */
  plugins: PluginRuntime | null = null;
  /** Whether the workspace's `.islet/` may widen anything (refreshTrust() may grant it later). */
  get trust(): WorkspaceTrust {
    return this.liveTrust.current;
  }
  private readonly liveTrust: LiveTrust;
  /** Null for engines built without one (tests that pass a fixed resolver). */
  readonly models: ModelSource | null;
  /** Plugins' permission requests: the user's grants, and the questions still to ask. */
  readonly consent: ConsentGate;
  /** The plugin editor's guarded access to plugin folders. */
  readonly pluginFiles = new PluginSourceFiles((name) => this.plugins?.get(name)?.spec.dir);
  /** MCP servers contributed by any source: started lazily (first turn), stopped on close. */
  readonly mcp: McpManager;
  private mcpConfig: McpConfigSource | null = null;
  /** Shell hooks and Claude Code plugins (main/extensions/declarative.ts). */
  readonly declarative: DeclarativeExtensions;
  /** On-demand plugins (main/extensions/activation/): listed to the model, activated on consent. */
  readonly activation: ActivationRegistry;
  /** What the last loadPlugins was given (runner plugins follow it too); plugins off until then. */
  private pluginFlags: PluginFlags = { withoutPlugins: true };
  /** Where `/output-style` and the app's picker find styles and save a session's choice. */
  readonly outputStyleDeps: OutputStyleDeps;
  /** The homes' commands, skills and agents (reloadMarkdown() reads them again). */
  readonly homeMarkdown: HomeMarkdown;
  /** The homes' commands, skills, agents, hooks and trust record (watchHomes()). */
  private readonly watchers: EngineWatchers;
  private readonly opts: EngineOptions;

  constructor(opts: EngineOptions) {
    this.opts = opts;
    this.homes = opts.homes;
    this.models = opts.models ?? null;
    this.liveTrust = new LiveTrust({
      homes: opts.homes,
      initial: opts.trust,
      apply: async () => {
        this.reloadMarkdown();
        await this.declarative.reload();
        await this.loadMcp();
        await this.activation.refresh();
      },
      warn: opts.warn,
    });
    this.watchers = new EngineWatchers({
      warn: opts.warn,
      afterPluginReload: () => {
        // A plugin.yaml added, removed or edited: the on-demand listing follows.
        void this.activation.refresh();
        // An edited plugin.yaml may ask for more: ask (in the background) and reload on a grant.
        void this.consent.settle();
      },
    });
    this.consent = new ConsentGate({
      globalHome: opts.homes.global,
      questions: opts.questions,
      trustedProject: this.trust.trusted,
      warn: opts.warn,
    });
    this.agents.add(DEFAULT_AGENT, "builtin");
    for (const tool of builtinTools()) this.tools.register(tool);
    registerBuiltinCommands(this.commands);
    this.outputStyleDeps = engineOutputStyles(this);
    this.commands.register(outputStyleCommand(this.outputStyleDeps));
    this.mcp = new McpManager(this.extensions.mcpServers, this.extensions.registrar(), {
      warn: opts.warn,
      disabledStore: new McpDisabledStore(opts.homes.global, opts.homes.workdir, opts.warn),
      slowStarts: new McpSlowStarts(opts.homes.global),
    });
    const trusted = (): boolean => this.trust.trusted;
    this.declarative = new DeclarativeExtensions(this.extensions, {
      homes: opts.homes,
      // Read at each load: refreshTrust() reloads them once the folder is trusted.
      get trustedProject() {
        return trusted();
      },
      warn: opts.warn,
      env: opts.env,
    });
    // Commands, skills and agents of the homes; skills listed to the model.
    this.homeMarkdown = new HomeMarkdown(this.extensions, {
      homes: opts.homes,
      trustedProject: trusted,
      warn: opts.warn,
    });
    this.reloadMarkdown();
    registerSkillAndTaskTools(this.extensions, {
      workdir: opts.homes.workdir,
      // Late-bound: the approval policy is made below.
      shell: (command) => this.commandShell(undefined)(command),
      subAgentDeps: (emit) => this.deps(emit, "", undefined),
      subagentStop: (...args) => this.declarative.subagentStop(...args),
      subagentStart: (parent, agent) => this.declarative.subagentStart(parent, agent),
    });
    this.activation = setupActivation(this.extensions, {
      homes: opts.homes,
      get trustedProject() {
        return trusted();
      },
      env: opts.env,
      warn: opts.warn,
      questions: opts.questions,
      plugins: () => this.plugins,
      consent: this.consent,
      pluginFlags: () => this.pluginFlags,
    });
    this.store = SessionStore.forHome(opts.homes.global, { appVersion: APP_VERSION });
    this.approvals = new ApprovalPolicy({
      globalHome: opts.homes.global,
      workdir: opts.homes.workdir,
      tools: this.tools,
      warn: opts.warn,
    });
  }

  /**
   * Reads the homes' custom commands, skills and agents again: what was removed is gone, what was
   * added or edited serves (the plugin browser's Reload and the file watcher do this).
   */
  reloadMarkdown(): void {
    this.homeMarkdown.load();
  }

  /**
   * Reads the trust record again (`islet trust add|revoke` or the app's Settings while this engine
   * runs): a change brings the project's parts in or takes them away without a restart.
   */
  refreshTrust(): Promise<boolean> {
    return this.liveTrust.refresh();
  }

  /** Records the user's decision on the workspace folder (the app's Settings) and applies it now. */
  setTrust(trusted: boolean): Promise<WorkspaceTrust> {
    return this.liveTrust.set(trusted);
  }

  /** Why `/name` is not a command: a held-back project's, a failed plugin's, or unknown. */
  missingCommand(name: string): string {
    if (this.homeMarkdown.heldBackCommand(name))
      return this.homeMarkdown.heldBackReason(`/${name}`);
    return (
      this.plugins?.missingCommand(name) ?? `unknown command /${name}; /help lists the commands`
    );
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
    // A watcher follows one runtime: it moves to the new one below.
    const watched = await this.watchers.detachPlugins();
    await this.activation.deactivateAll();
    this.pluginFlags = flags;
    await this.plugins?.dispose();
    this.plugins = null;
    // Released here only if loading fails half-way; otherwise the runtime's dispose() does it.
    const registrar = this.extensions.registrar();
    this.plugins = await createPluginRuntime({
      homes: this.homes,
      flags: { ...flags, trustedProject: this.trust.trusted },
      consent: this.consent,
      secretFiles: this.opts.secretFiles ?? [],
      env: this.opts.env,
      registrar,
      contextFallback: () =>
        new AgentSession(
          this.deps(() => {}, "", undefined),
          { agent: "default", sessionId: "" },
        ).context(),
      warn: this.opts.warn,
      limits: opts.limits,
      hostBackend: opts.hostBackend,
      onReload: opts.onReload,
    }).catch((err: unknown) => {
      registrar.dispose();
      throw err;
    });
    // `once` is per session: remember what fired in the session file so a resume keeps it.
    this.plugins.once.onMark = (session, plugin, timing) => {
      if (!session) return;
      try {
        this.store.append(session, { t: "state", key: `once:${plugin}:${timing}`, value: true });
      } catch (err) {
        this.opts.warn({
          source: "sessions",
          title: `could not save once-state for ${plugin}: ${(err as Error).message}`,
        });
      }
    };
    // On-demand plugins: listed, and the workspace's recorded activations loaded again.
    await this.activation.load();
    if (watched) await this.watchers.watchPlugins(this.plugins);
    return this.plugins;
  }

  /** MCP servers from config/mcp/ and the project's .mcp.json (reloaded when called again). */
  async loadMcp(): Promise<void> {
    await this.mcpConfig?.dispose();
    this.mcpConfig = new McpConfigSource({
      homes: this.homes,
      trustedProject: this.trust.trusted,
      env: this.opts.env,
    });
    const { problems } = await this.mcpConfig.discover();
    for (const p of problems) this.opts.warn(p);
    await this.mcpConfig.load(this.extensions.registrar());
  }

  /** Hot reload: watch the plugins folders (the app and `islet serve`; not needed for one-shot runs). */
  async watchPlugins(onReload?: (reports: ReloadReport[]) => void): Promise<void> {
    if (this.plugins) await this.watchers.watchPlugins(this.plugins, onReload ?? null);
  }

  /**
   * Live edits without /reload (the app and `islet serve`): the homes' commands, skills, agents
   * and shell hook files, and the trust record. `onChange` runs after each applied batch.
   */
  async watchHomes(onChange?: () => void): Promise<void> {
    await this.watchers.watchHomes(this.homes, {
      markdown: () => this.reloadMarkdown(),
      // A hook file changed: what runs from a trusted folder may differ from what was trusted.
      hooks: async () => {
        await this.refreshTrust();
        await this.declarative.reloadShellHooks();
      },
      trust: () => this.refreshTrust(),
      changed: onChange,
    });
  }

  /** Whether plugin folders are watched (a save then reloads by itself). */
  get watchingPlugins(): boolean {
    return this.watchers.watchingPlugins;
  }

  /**
   * Asks the user about plugins' unanswered permission requests and reloads the plugins granted
   * more. Hosts call it once plugins are loaded: the CLI awaits it before the first turn; the UI
   * hosts let it run while the user decides.
   */
  askPluginPermissions(): Promise<void> {
    return this.consent.settle();
  }

  async close(): Promise<void> {
    await this.watchers.close();
    // Session end: every activated plugin stops (its processes too); the records stay.
    await this.activation.deactivateAll();
    await this.plugins?.dispose();
    this.plugins = null;
    await this.mcpConfig?.dispose();
    await this.declarative.dispose();
    this.homeMarkdown.dispose();
    await this.mcp.close();
    await this.store.close();
    // The embedded model runtime's process (if one runs) and the model it holds.
    await unloadSharedRuntime();
  }

  /** A saved session's display history (chat/history, asked of an open conversation). */
  history(sessionId: string): Promise<AgentEvent[]> {
    return savedDisplayHistory(this.store, sessionId, this.opts.warn);
  }

  /** The shell slash commands' !`cmd` lines run in: Bash's approval rule, asked of `questions`. */
  commandShell(questions: QuestionPort | undefined): (command: string) => Promise<string> {
    return approvedShell(this.approvals, this.homes.workdir, questions ?? this.opts.questions);
  }

  agent(name: string): AgentConfig {
    const agent = this.agents.get(name);
    if (agent) return agent;
    if (this.homeMarkdown.heldBackAgent(name))
      throw new Error(this.homeMarkdown.heldBackReason(`agent "${name}"`));
    throw new Error(`unknown agent "${name}"; known agents: ${[...this.agents.keys()].join(", ")}`);
  }

  /** A new conversation (its file is created once the model is known) or a saved one. */
  open(req: OpenRequest): Promise<Conversation> {
    return openConversation(this.openPort(), req);
  }

  /** What a conversation asks of the engine while it is open. */
  private conversationPort(): ConversationPort {
    return {
      workdir: this.homes.workdir,
      command: (name) => this.commands.get(name),
      missingCommand: (name) => this.missingCommand(name),
      agentNames: () => [...this.agents.keys()],
      toolNames: () => this.tools.names(),
      startMcp: () => this.mcp.startInBackground(),
      commandShell: (questions) => this.commandShell(questions),
      sessionEnd: (context) => this.declarative.sessionEnd(context, "other"),
      promptExpansion: (session, expansion) =>
        this.declarative.userPromptExpansion(session, expansion),
      closeSession: (id) => this.store.close(id),
    };
  }

  /** What opening (or resuming) a conversation asks of the engine. */
  private openPort(): OpenPort {
    return {
      ...this.conversationPort(),
      store: this.store,
      agent: (name) => this.agent(name),
      hasAgent: (name) => this.agents.has(name),
      restoreOnce: (id, state) => this.plugins?.once.restore(id, state),
      outputStyles: () => this.outputStyles(),
      resolveModel: (agent) => this.opts.resolveModel(agent),
      warn: (line) => this.opts.warn(line),
      deps: (emit, id, questions) => this.deps(emit, id, questions),
    };
  }

  /** Output styles of the homes (the project's once trusted) and the enabled Claude Code plugins. */
  outputStyles(): ReturnType<OutputStyleDeps["styles"]> {
    return this.outputStyleDeps.styles();
  }

  /**
   * What a dry run of a turn needs (plugin replay): the engine's agents, tools and prompt
   * fragments with other hooks and model; nothing is saved, compacted, asked or executed.
   */
  dryRunDeps(over: Pick<EngineDeps, "hooks" | "resolveModel" | "emit">): EngineDeps {
    return dryRunDeps(this.deps(over.emit, "", undefined), over);
  }

  private deps(
    emit: EventSink,
    sessionId: string,
    questions: QuestionPort | undefined,
  ): EngineDeps {
    return turnDeps(this, this.opts, { emit, sessionId, questions });
  }
}
