/**
 * The file-based extension sources an engine loads besides code plugins: the user's shell hooks
 * (always: they are configuration, like providers.yaml) and Claude Code plugins (with plugins).
 * Each source gets a registrar of its own; reload and dispose release exactly its contributions.
 */
import type { Context } from "../../plugins/sdk/index.ts";
import type { Homes } from "../config/homes.ts";
import type { Question, QuestionPort } from "../host/questions.ts";
import type { Contributions } from "../contributions/contributions.ts";
import type { ScopedRegistrar } from "../contributions/registrar.ts";
import type { ExtensionSource } from "../contributions/source.ts";
import type { PluginFlags } from "../code-plugins/loader/features.ts";
import { ClaudePluginSource } from "./claude/source.ts";
import { ShellHookSource } from "./shell-hooks/source.ts";
import { foldPermissionAnswers, type PermissionOutcome } from "./permission-request.ts";
import type { Problem } from "../host/problem.ts";

export interface DeclarativeOptions {
  homes: Homes;
  trustedProject: boolean;
  warn(problem: Problem): void;
  /** `${VAR}` values for Claude Code plugins' .mcp.json (default process.env). */
  env?: Record<string, string | undefined>;
}

export class DeclarativeExtensions {
  readonly shellHooks: ShellHookSource;
  /** Null until loaded with plugin flags (hosts that load no plugins load none of these). */
  claudePlugins: ClaudePluginSource | null = null;
  private readonly extensions: Contributions;
  private readonly opts: DeclarativeOptions;
  private pluginFlags: PluginFlags | undefined;
  private loaded: { source: ExtensionSource; registrar: ScopedRegistrar }[] = [];

  constructor(extensions: Contributions, opts: DeclarativeOptions) {
    this.extensions = extensions;
    this.opts = opts;
    this.shellHooks = new ShellHookSource(opts);
  }

  /**
   * (Re)loads every source; what a previous load contributed is released first. `plugins`: the
   * plugin flags when the host loads plugins (Claude Code plugins come with them).
   */
  async load(plugins?: PluginFlags): Promise<void> {
    await this.dispose();
    this.pluginFlags = plugins;
    this.claudePlugins = plugins
      ? new ClaudePluginSource({
          homes: this.opts.homes,
          flags: { ...plugins, trustedProject: this.opts.trustedProject },
          warn: this.opts.warn,
          env: this.opts.env,
        })
      : null;
    const sources: ExtensionSource[] = [this.shellHooks];
    if (this.claudePlugins) sources.push(this.claudePlugins);
    for (const source of sources) {
      const registrar = this.extensions.registrar();
      try {
        await source.load(registrar);
      } catch (err) {
        registrar.dispose();
        throw err;
      }
      this.loaded.push({ source, registrar });
    }
  }

  /**
   * Claude's SessionEnd, when a conversation closes: Claude Code plugins' hooks, then the user's
   * (HOOK_SOURCE_ORDER). It cannot block; failures go to `warn`.
   */
  async sessionEnd(ctx: Context, reason: string): Promise<void> {
    const failures = [
      ...((await this.claudePlugins?.sessionEnd(ctx, reason)) ?? []),
      ...(await this.shellHooks.sessionEnd(ctx, reason)),
    ];
    for (const failure of failures) this.opts.warn(failure);
  }

  /**
   * Claude's UserPromptExpansion, when a slash command expanded into the prompt about to be sent:
   * Claude Code plugins' hooks, then the user's. `blocked`: why it is not sent; `context`: what
   * the hooks add to it.
   */
  async userPromptExpansion(
    session: { id: string; workdir: string },
    expansion: { name: string; args: string; source: string; prompt: string },
  ): Promise<{ blocked?: string; context?: string }> {
    const none = { failures: [], reasons: [], contexts: [] };
    const results = [
      (await this.claudePlugins?.userPromptExpansion(session, expansion)) ?? none,
      await this.shellHooks.userPromptExpansion(session, expansion),
    ];
    for (const failure of results.flatMap((r) => r.failures)) this.opts.warn(failure);
    const reasons = results.flatMap((r) => r.reasons);
    const contexts = results.flatMap((r) => r.contexts);
    return {
      ...(reasons.length > 0 ? { blocked: reasons.join("\n") } : {}),
      ...(contexts.length > 0 ? { context: contexts.join("\n\n") } : {}),
    };
  }

  /**
   * Claude's SubagentStart, when a Task's sub-agent starts: Claude Code plugins' hooks, then the
   * user's. Returns the context they add, joined, or undefined.
   */
  async subagentStart(
    session: { id: string; workdir: string },
    agent: string,
  ): Promise<string | undefined> {
    const results = [
      ...((await this.claudePlugins?.subagentStart(session, agent)) ?? []),
      await this.shellHooks.subagentStart(session, agent),
    ];
    for (const failure of results.flatMap((r) => r.failures)) this.opts.warn(failure);
    const contexts = results.flatMap((r) => r.contexts);
    return contexts.length > 0 ? contexts.join("\n\n") : undefined;
  }

  /**
   * Claude's SubagentStop, when a Task's sub-agent answered: Claude Code plugins' hooks, then the
   * user's. Returns the reasons to keep it going (a hook blocked), joined, or undefined to stop.
   */
  async subagentStop(
    session: { id: string; workdir: string },
    agent: string,
    active: boolean,
    answer: string,
  ): Promise<string | undefined> {
    const none = { failures: [], reasons: [] };
    const results = [
      (await this.claudePlugins?.subagentStop(session, agent, active, answer)) ?? none,
      await this.shellHooks.subagentStop(session, agent, active, answer),
    ];
    for (const failure of results.flatMap((r) => r.failures)) this.opts.warn(failure);
    const reasons = results.flatMap((r) => r.reasons);
    return reasons.length > 0 ? reasons.join("\n") : undefined;
  }

  /**
   * A question port that also runs Claude's Notification hooks when a person is asked to approve
   * a tool call (`permission_prompt`). The hooks run beside the question, never delay it.
   */
  notifying(
    port: QuestionPort | undefined,
    sessionId: string,
    workdir: string,
  ): QuestionPort | undefined {
    if (!port || port.automatic) return port;
    return {
      ask: (question, signal) => {
        const q: Question = question;
        if (q.kind === "approval") {
          const message = `Islet needs your permission to use ${q.tool}`;
          const session = { id: sessionId, workdir };
          void Promise.all([
            this.claudePlugins?.notification(session, message, "permission_prompt") ?? [],
            this.shellHooks.notification(session, message, "permission_prompt"),
          ]).then((lists) => {
            for (const failure of lists.flat()) this.opts.warn(failure);
          });
        }
        return port.ask(question, signal);
      },
    };
  }

  /**
   * Claude's PermissionRequest hooks of the plugins and the user, run when a person is about to
   * be asked to approve a call: their folded answer (permission-request.ts says who may approve).
   */
  async permissionRequest(
    session: { id: string; workdir: string },
    tool: string,
    args: Record<string, unknown>,
  ): Promise<PermissionOutcome> {
    const results = await Promise.all([
      this.claudePlugins?.permissionRequest(session, tool, args) ?? { failures: [], answers: [] },
      this.shellHooks.permissionRequest(session, tool, args),
    ]);
    for (const failure of results.flatMap((r) => r.failures)) this.opts.warn(failure);
    return foldPermissionAnswers(
      tool,
      results.flatMap((r) => r.answers),
    );
  }

  /**
   * Resolves once the Stop and SessionEnd commands that went on in the background (`async`, the
   * `{"async":true}` line: a log, a notification) have ended, each within its own time limit: a
   * one-shot run waits for them rather than stopping them half way. Background work of other
   * events (a SessionStart that builds a tool for later, an `asyncRewake` review whose word is for
   * a next step the run will not have) is not waited for. `waiting` is told the hooks first.
   */
  async sessionHooksEnded(waiting?: (hooks: string[]) => void): Promise<void> {
    let running = this.stillClosing();
    if (running.length > 0) waiting?.([...new Set(running.map((r) => r.hook))]);
    // Any started meanwhile (a closing conversation's SessionEnd) are waited for too.
    while (running.length > 0) {
      await Promise.allSettled(running.map((r) => r.ended));
      running = this.stillClosing();
    }
  }

  private stillClosing(): { hook: string; ended: Promise<unknown> }[] {
    return [...this.shellHooks.stillClosing(), ...(this.claudePlugins?.stillClosing() ?? [])];
  }

  /** Reads the shell hook files again (a hook file changed on disk); the rest stays as it is. */
  async reloadShellHooks(): Promise<void> {
    const i = this.loaded.findIndex((l) => l.source === this.shellHooks);
    if (i < 0) return;
    const old = this.loaded[i];
    await old.source.dispose();
    old.registrar.dispose();
    const registrar = this.extensions.registrar();
    this.loaded[i] = { source: this.shellHooks, registrar };
    await this.shellHooks.load(registrar);
  }

  /** Reads every file again (the plugin browser's Reload), with the flags of the last load. */
  reload(): Promise<void> {
    return this.load(this.pluginFlags);
  }

  async dispose(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = [];
    for (const { source, registrar } of loaded.reverse()) {
      await source.dispose();
      registrar.dispose();
    }
  }
}
