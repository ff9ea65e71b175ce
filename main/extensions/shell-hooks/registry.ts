/**
 * Shell hook commands as engine hook handlers. One handler per command, so each run shows in the
 * hook timeline (source `ORIGIN:Event`). As in Claude Code, the commands of one event run in
 * parallel, each given the same input; their verdicts are then folded in file order, so the
 * outcome does not depend on which finished first.
 */
import type {
  HookContexts,
  HookHandler,
  HookInvocation,
  HookLive,
  HookRegistry,
  HookResults,
  HookTiming,
} from "../../turn/hooks/types.ts";
import type { Context } from "../../../plugins/sdk/index.ts";
import { hookProblem, type ShellHookOrigin, type ShellHookSpec } from "./config.ts";
import type { Problem } from "../../host/problem.ts";
import { EVENT_TIMING, eventHere, eventInput, type SessionMemory } from "./event-input.ts";
import { compileMatcher, coversCall, type Matcher } from "./matcher.ts";
import { readVerdict } from "./output.ts";
import { expandVars, runHookCommand, type HookRun } from "./run-command.ts";
import { verdictResult } from "./verdict-result.ts";
import { enterStopPoint, STOP_ACTIVE, stopPoints } from "./stop-points.ts";
import { Rewakes } from "./rewake.ts";
import {
  claudeTranscriptPath,
  transcriptsFor,
  type ClaudeTranscripts,
} from "../../sessions/claude-transcript.ts";
import { OUTSIDE_EVENTS, OutsideEventHooks, type OutsideHook } from "./outside-events.ts";
import { TIMEOUTS_BEFORE_PAUSE, TimeoutStreaks } from "./timeout-streaks.ts";

export interface ShellHookRegistryOptions {
  hooks: readonly { spec: ShellHookSpec; origin: ShellHookOrigin }[];
  globalHome: string;
  /** Base environment of the commands (the process's). */
  env?: Record<string, string | undefined>;
}

export class ShellHookRegistry implements HookRegistry {
  private readonly byTiming = new Map<HookTiming, HookHandler[]>();
  private readonly stopAll = new AbortController();
  private readonly memory: SessionMemory = { started: new Set(), stopActive: STOP_ACTIVE };
  /** The commands of the events outside the turn's hook points (the engine calls them). */
  readonly outside: OutsideEventHooks;
  private readonly opts: ShellHookRegistryOptions;
  /** Matchers that did not compile. */
  readonly problems: Problem[] = [];
  /** What background (`asyncRewake`) hooks said when they ended, for each session's next step. */
  private readonly rewakes = new Rewakes();
  /**
   * Stop and SessionEnd commands still running in the background (`async`, the `{"async":true}`
   * line), till their process ends: the session's last work, a log or a notification, which a
   * one-shot run waits for. An `asyncRewake` one's word is for a next step: not among them.
   */
  private readonly closing = new Map<Promise<unknown>, string>();
  private readonly transcripts: ClaudeTranscripts;
  /** Commands that ran into their time limit again and again, left out for the conversation. */
  private readonly timeouts = new TimeoutStreaks();

  constructor(opts: ShellHookRegistryOptions) {
    this.opts = opts;
    this.transcripts = transcriptsFor(opts.globalHome);
    // SessionStart before UserPromptSubmit at the same point, then file order.
    const ordered = [...opts.hooks].sort(
      (a, b) => Number(b.spec.event === "SessionStart") - Number(a.spec.event === "SessionStart"),
    );
    const outside: OutsideHook[] = [];
    for (const { spec, origin } of ordered) {
      if (OUTSIDE_EVENTS.has(spec.event))
        outside.push({ spec, origin, match: this.matcher(spec).match });
      const timing = EVENT_TIMING[spec.event];
      if (!timing) continue;
      const list = this.byTiming.get(timing) ?? [];
      list.push(this.handler(spec, origin, timing, opts));
      this.byTiming.set(timing, list);
    }
    if (opts.hooks.some(({ spec }) => spec.background === "rewake")) {
      const list = this.byTiming.get("beforeChat") ?? [];
      list.push(this.rewakes.handler());
      this.byTiming.set("beforeChat", list);
    }
    this.outside = new OutsideEventHooks(outside, {
      run: (spec, origin, workdir, input) => this.run(spec, origin, workdir, input),
      transcript: (id, workdir) => this.syncTranscript(id, workdir),
      stopped: this.stopAll.signal,
    });
  }

  handlers<T extends HookTiming>(timing: T): readonly HookHandler<T>[] {
    return (this.byTiming.get(timing) ?? []) as unknown as readonly HookHandler<T>[];
  }

  /**
   * SessionEnd (a conversation closed; `reason` as Claude's: clear, logout, prompt_input_exit,
   * other): runs each matching command; it cannot block. Failures come back one line each.
   */
  async sessionEnd(ctx: Context, reason: string): Promise<Problem[]> {
    // Brought up to date only for commands that will read it.
    if (ctx.session.id && this.outside.has("SessionEnd"))
      this.syncTranscript(ctx.session.id, ctx.workdir);
    const input = { ...eventInput("SessionEnd", ctx, this.opts.globalHome, this.memory), reason };
    const { failures } = await this.outside.run("SessionEnd", reason, input, ctx.workdir);
    this.memory.started.delete(ctx.session.id);
    this.memory.stopActive.delete(ctx.session.id);
    this.timeouts.forget(ctx.session.id);
    stopPoints.delete(ctx.session.id);
    return failures;
  }

  /**
   * Brings the session's Claude-shaped transcript (transcript_path) up to date before a command
   * reads it; at Stop the answer being judged is its last line, as in Claude Code.
   */
  private syncTranscript(id: string, workdir: string, ctx?: HookContexts[HookTiming]): string {
    const answer = ctx && "calls" in ctx && "content" in ctx ? ctx : undefined;
    try {
      return this.transcripts.sync(id, workdir, answer);
    } catch {
      // A transcript that cannot be written must not take the hook down; it reads what is there.
      return claudeTranscriptPath(this.opts.globalHome, id);
    }
  }

  /** Stops every running command's process tree; nothing runs afterwards. */
  dispose(): void {
    this.stopAll.abort();
  }

  /** The session's last commands still running (`label:Event`; see `closing`). */
  stillClosing(): { hook: string; ended: Promise<unknown> }[] {
    return [...this.closing].map(([ended, hook]) => ({ hook, ended }));
  }

  private handler(
    spec: ShellHookSpec,
    origin: ShellHookOrigin,
    timing: HookTiming,
    opts: ShellHookRegistryOptions,
  ): HookHandler {
    const matcher = this.matcher(spec);
    const memory = this.memory;
    const signal = this.stopAll.signal;
    return {
      source: `${origin.label}:${spec.event}`,
      timing,
      concurrent: `shell:${spec.event}`,
      claudeHook: true,
      invoke: async (
        ctx: HookContexts[HookTiming],
        live?: HookLive,
      ): Promise<HookInvocation<HookTiming>> => {
        if (signal.aborted) return { status: "skipped", reason: "hooks unloaded" };
        const at = eventHere(spec.event, ctx, memory);
        if (!at.here) return { status: "skipped", reason: at.why };
        if (at.subject !== "" && !(at.names ?? [at.subject]).some(matcher.match))
          return {
            status: "skipped",
            reason: `matcher "${spec.matcher}" does not match ${at.subject}`,
          };
        if (spec.if && !coversCall(spec, ctx))
          return { status: "skipped", reason: `if "${spec.if.text}" does not cover this call` };
        const session = ctx.session.id;
        if (this.timeouts.paused(session, spec))
          return {
            status: "skipped",
            reason: `timed out ${TIMEOUTS_BEFORE_PAUSE} times in a row: not run again in this conversation`,
          };
        if (ctx.session.id) this.syncTranscript(ctx.session.id, ctx.workdir, ctx);
        if (spec.event === "Stop") enterStopPoint(ctx.session.id, ctx);
        const input = eventInput(spec.event, ctx, opts.globalHome, memory);
        if (spec.event === "SessionStart") memory.started.add(ctx.session.id);
        const running = this.run(spec, origin, ctx.workdir, input);
        // A background command holds nothing up: there is nothing to wait on to show.
        if (spec.statusMessage && !spec.background) live?.status(spec.statusMessage);
        if (spec.background) {
          this.whenDone(spec, origin, ctx.session.id, running);
          return { status: "ok", result: undefined as unknown as HookResults[HookTiming] };
        }
        const run = await running;
        if (run.detached) {
          // `{"async":true}` on its first line: it goes on without holding the turn up.
          this.whenDone(spec, origin, ctx.session.id, run.detached);
          return { status: "ok", result: undefined as unknown as HookResults[HookTiming] };
        }
        if (this.timeouts.record(session, spec, run.timedOut))
          return {
            status: "error",
            message: `timed out after ${spec.timeoutS} s, ${TIMEOUTS_BEFORE_PAUSE} times in a row: not run again in this conversation (the action goes on)`,
          };
        const verdict = readVerdict(spec.event, run, spec.timeoutS);
        if (spec.event === "Stop") {
          const point = stopPoints.get(ctx.session.id);
          if (point && verdict.block && !verdict.stop) point.blocked = true;
        }
        if (verdict.error) return { status: "error", message: verdict.error };
        const result = verdictResult(spec.event, verdict, ctx) as HookResults[HookTiming];
        return { status: "ok", result };
      },
    };
  }

  /** A background run: an `asyncRewake` hook's word, when it has one, waits for the next step. */
  private whenDone(
    spec: ShellHookSpec,
    origin: ShellHookOrigin,
    session: string,
    running: Promise<HookRun>,
  ): void {
    if (spec.background !== "rewake") return;
    void running.then((run) => {
      if (!this.stopAll.signal.aborted) this.rewakes.add(spec, origin.label, session, run);
    });
  }

  private matcher(spec: ShellHookSpec): { match: Matcher } {
    const compiled = compileMatcher(spec.matcher);
    if (compiled.error)
      this.problems.push(hookProblem(spec.file, `field "${spec.field}": ${compiled.error}`));
    return compiled;
  }

  /** One command with Claude's environment, in the workspace, stopped on timeout or unload. */
  private run(
    spec: ShellHookSpec,
    origin: ShellHookOrigin,
    workdir: string,
    input: Record<string, unknown>,
  ): Promise<HookRun> {
    const env: Record<string, string | undefined> = {
      ...(this.opts.env ?? process.env),
      CLAUDE_PROJECT_DIR: workdir,
    };
    if (origin.pluginRoot) env.CLAUDE_PLUGIN_ROOT = origin.pluginRoot;
    if (origin.pluginData) env.CLAUDE_PLUGIN_DATA = origin.pluginData;
    const answered = runHookCommand({
      command: expandVars(spec.command, env),
      stdin: JSON.stringify(input),
      cwd: workdir,
      env,
      timeoutMs: spec.timeoutS * 1000,
      signal: this.stopAll.signal,
    });
    if ((spec.event === "Stop" || spec.event === "SessionEnd") && spec.background !== "rewake") {
      // Its process ends with the answer, or later when the command went on in the background.
      const ended = answered.then((run) => run.detached ?? run);
      this.closing.set(ended, `${origin.label}:${spec.event}`);
      void ended.finally(() => this.closing.delete(ended));
    }
    return answered;
  }
}
