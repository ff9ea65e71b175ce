/**
 * The shell hooks of the events that happen outside the turn's hook points (SessionEnd,
 * Notification, PermissionRequest, UserPromptExpansion, SubagentStart, SubagentStop): the engine
 * calls one when it happens. Its matching commands run at once, as a turn's hooks of one event,
 * and their verdicts are read back in file order.
 */
import type { Problem } from "../../host/problem.ts";
import type { PermissionAnswer } from "../permission-request.ts";
import {
  claudeToolName,
  toClaudeInput,
  toIsletInput,
  toolNamesFor,
} from "../../tools/claude-names.ts";
import type { ShellHookEvent, ShellHookOrigin, ShellHookSpec } from "./config.ts";
import type { Matcher } from "./matcher.ts";
import { readVerdict } from "./output.ts";
import type { HookRun } from "./run-command.ts";

export const OUTSIDE_EVENTS: ReadonlySet<ShellHookEvent> = new Set([
  "UserPromptExpansion",
  "SessionEnd",
  "Notification",
  "PermissionRequest",
  "SubagentStart",
  "SubagentStop",
]);
export type OutsideEvent =
  | "UserPromptExpansion"
  | "SessionEnd"
  | "Notification"
  | "PermissionRequest"
  | "SubagentStart"
  | "SubagentStop";

export interface OutsideHook {
  spec: ShellHookSpec;
  origin: ShellHookOrigin;
  match: Matcher;
}

/** What the registry lends: its way of running a command, the transcripts, its unload. */
export interface OutsideRunner {
  /** One command with Claude's environment, in the workspace, stopped on timeout or unload. */
  run(
    spec: ShellHookSpec,
    origin: ShellHookOrigin,
    workdir: string,
    input: Record<string, unknown>,
  ): Promise<HookRun>;
  /** Brings the session's Claude-shaped transcript up to date; its path (transcript_path). */
  transcript(id: string, workdir: string): string;
  /** Aborted once the hooks unloaded: nothing runs afterwards. */
  stopped: AbortSignal;
}

type Session = { id: string; workdir: string };

export class OutsideEventHooks {
  private readonly hooks: readonly OutsideHook[];
  private readonly runner: OutsideRunner;

  constructor(hooks: readonly OutsideHook[], runner: OutsideRunner) {
    this.hooks = hooks;
    this.runner = runner;
  }

  /** Whether any command listens for the event. */
  has(event: OutsideEvent): boolean {
    return this.hooks.some((h) => h.spec.event === event);
  }

  /**
   * Notification (Islet is waiting for the person: `notification_type` permission_prompt, the
   * matcher's subject): informational, it cannot block. Failures come back one line each.
   */
  notification(session: Session, message: string, type: string): Promise<Problem[]> {
    const input = {
      ...this.common(session, "Notification"),
      message,
      notification_type: type,
    };
    return this.run("Notification", type, input, session.workdir).then((r) => r.failures);
  }

  /**
   * SubagentStop (a Task's sub-agent answered; the matcher's subject is its agent): a block
   * (exit 2 or `decision: "block"`) keeps the sub-agent going with the reason. `active`: it
   * already continued because of a hook (Claude's `stop_hook_active`); `answer`: what it said.
   */
  subagentStop(
    session: Session,
    agent: string,
    active: boolean,
    answer: string,
  ): Promise<{ failures: Problem[]; reasons: string[] }> {
    const input = {
      ...this.common(session, "SubagentStop"),
      stop_hook_active: active,
      agent_type: agent,
      last_assistant_message: answer,
    };
    return this.run("SubagentStop", agent, input, session.workdir);
  }

  /**
   * PermissionRequest (a person is about to be asked to approve a tool call; matcher on the
   * tool): each hook's answer, in file order, with whether its `allow` may stand.
   */
  async permissionRequest(
    session: Session,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ failures: Problem[]; answers: PermissionAnswer[] }> {
    const input = {
      ...this.common(session, "PermissionRequest"),
      tool_name: claudeToolName(tool),
      tool_input: toClaudeInput(tool, args),
      permission_suggestions: [],
    };
    const failures: Problem[] = [];
    const answers: PermissionAnswer[] = [];
    const names = toolNamesFor(tool);
    const ran = await this.runMatching(
      "PermissionRequest",
      (match) => names.some(match),
      input,
      session.workdir,
    );
    for (const { origin, verdict } of ran) {
      const by = `${origin.label}:PermissionRequest`;
      if (verdict.error) failures.push({ source: by, title: `${by} failed: ${verdict.error}` });
      if (verdict.behavior)
        answers.push({
          behavior: verdict.behavior,
          by,
          ...(verdict.reason ? { message: verdict.reason } : {}),
          // As on PreToolUse: fields the hook does not name keep their values.
          ...(verdict.updatedInput
            ? { arguments: { ...args, ...toIsletInput(tool, verdict.updatedInput) } }
            : {}),
          mayApprove: origin.mayApprove === true,
        });
    }
    return { failures, answers };
  }

  /**
   * UserPromptExpansion (a slash command expanded into the prompt about to be sent; matcher on
   * the command's name): the reasons to block it and the context hooks add.
   */
  userPromptExpansion(
    session: Session,
    expansion: { name: string; args: string; source: string; prompt: string },
  ): Promise<{ failures: Problem[]; reasons: string[]; contexts: string[] }> {
    const input = {
      ...this.common(session, "UserPromptExpansion"),
      expansion_type: "slash_command",
      command_name: expansion.name,
      command_args: expansion.args,
      command_source: expansion.source,
      prompt: expansion.prompt,
    };
    return this.run("UserPromptExpansion", expansion.name, input, session.workdir);
  }

  /** SubagentStart (a Task's sub-agent starts; matcher on its agent): the context hooks add. */
  async subagentStart(
    session: Session,
    agent: string,
  ): Promise<{ failures: Problem[]; contexts: string[] }> {
    const input = {
      ...this.common(session, "SubagentStart"),
      agent_id: "",
      agent_type: agent,
    };
    const { failures, contexts } = await this.run("SubagentStart", agent, input, session.workdir);
    return { failures, contexts };
  }

  /**
   * Runs the event's commands whose matcher takes `subject`: their failures, the reasons they
   * give to block (or go on), and the context they add.
   */
  async run(
    event: OutsideEvent,
    subject: string,
    input: Record<string, unknown>,
    workdir: string,
  ): Promise<{ failures: Problem[]; reasons: string[]; contexts: string[] }> {
    const failures: Problem[] = [];
    const reasons: string[] = [];
    const contexts: string[] = [];
    const ran = await this.runMatching(event, (match) => match(subject), input, workdir);
    for (const { origin, verdict } of ran) {
      // The hook reports it, as a turn's hook failures name their source.
      const hook = `${origin.label}:${event}`;
      if (verdict.error) failures.push({ source: hook, title: `${hook} failed: ${verdict.error}` });
      if (verdict.block && !verdict.stop)
        reasons.push(verdict.reason ?? `${origin.label}:${event} asked to go on`);
      // An expansion stopped with `continue: false` is not sent either.
      if (event === "UserPromptExpansion" && verdict.stop)
        reasons.push(verdict.stopReason ?? `stopped by ${origin.label}:${event}`);
      if (verdict.context) contexts.push(verdict.context);
    }
    return { failures, reasons, contexts };
  }

  /**
   * Runs an outside event's hooks whose matcher `matches` accepts, all at once as a turn's hooks
   * of one event, and reads their verdicts back in file order (none once the hooks unloaded).
   */
  private async runMatching(
    event: OutsideEvent,
    matches: (match: Matcher) => boolean,
    input: Record<string, unknown>,
    workdir: string,
  ): Promise<{ origin: ShellHookOrigin; verdict: ReturnType<typeof readVerdict> }[]> {
    if (this.runner.stopped.aborted) return [];
    const matching = this.hooks.filter(({ spec, match }) => spec.event === event && matches(match));
    const runs = await Promise.all(
      matching.map(({ spec, origin }) => this.runner.run(spec, origin, workdir, input)),
    );
    return matching.map(({ spec, origin }, i) => ({
      origin,
      verdict: readVerdict(event, runs[i]!, spec.timeoutS),
    }));
  }

  /** The fields every event's input has, for the events outside the turn's hook points. */
  private common(session: Session, event: OutsideEvent) {
    return {
      session_id: session.id,
      transcript_path: session.id ? this.runner.transcript(session.id, session.workdir) : "",
      cwd: session.workdir,
      permission_mode: "default",
      hook_event_name: event,
    };
  }
}
