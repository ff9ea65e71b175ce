/**
 * Where each Claude Code event happens in Islet's turn, and the JSON its command gets on stdin
 * (Claude's field names). Events with no point in the engine yet are listed in UNWIRED_EVENTS.
 */
import { claudeTranscriptPath } from "../../sessions/claude-transcript.ts";
import type { HookContexts, HookTiming } from "../../turn/hooks/types.ts";
import type { Context } from "../../../plugins/sdk/index.ts";
import type { ShellHookEvent } from "./config.ts";
import {
  claudeToolName,
  claudeToolResponse,
  toClaudeInput,
  toolNamesFor,
} from "../../tools/claude-names.ts";

/** The engine hook point each event runs at. */
export const EVENT_TIMING: Partial<Record<ShellHookEvent, HookTiming>> = {
  // The first model call of a conversation in this engine (startup or resume).
  SessionStart: "beforeChat",
  // The first model call of a user turn: the prompt is in, nothing sent yet.
  UserPromptSubmit: "beforeChat",
  PreToolUse: "beforeToolExecution",
  PostToolUse: "afterToolExecution",
  // The same point, for a call that ran and failed (PostToolUse is for the ones that succeeded).
  PostToolUseFailure: "afterToolExecution",
  // A response without tool calls: the model is about to stop.
  Stop: "afterResponse",
  PreCompact: "beforeCompaction",
  // The next model call after a step's tool calls: the whole batch has its results.
  PostToolBatch: "beforeChat",
  // A model call failed past its retries and failovers: the turn ends with the error.
  StopFailure: "onError",
  PostCompact: "afterCompaction",
};

/**
 * Read, listed and shown, but Islet has no point to run them at yet (none today). SessionEnd,
 * Notification, PermissionRequest, UserPromptExpansion, SubagentStart and SubagentStop run
 * outside the turn's hook points: ShellHookRegistry.sessionEnd and outside-events.ts.
 */
export const UNWIRED_EVENTS: readonly ShellHookEvent[] = [];

/**
 * Events of the main conversation only, as in Claude Code: a Task's sub-agent (an unsaved
 * conversation, so its session id is "") fires SubagentStop and its tool events, never these.
 */
const MAIN_ONLY: readonly ShellHookEvent[] = [
  "SessionStart",
  "UserPromptSubmit",
  "Stop",
  "StopFailure",
];

/** Whether the hook point is in a Task's sub-agent (sub-agent conversations are never saved). */
export function inSubAgent(ctx: Context): boolean {
  return ctx.session.id === "";
}

/** Per-conversation memory a registry keeps between calls. */
export interface SessionMemory {
  /** Sessions whose SessionStart already ran. */
  started: Set<string>;
  /** Sessions where a Stop hook just kept the model going (Claude's `stop_hook_active`). */
  stopActive: Set<string>;
}

/**
 * Whether `event` happens at this call, and the names its matcher is tested against (the tool's
 * Claude and Islet names, SessionStart source, PreCompact trigger; "" where Claude ignores the
 * matcher): `subject` is the one shown, `names` every one that matches.
 */
export function eventHere(
  event: ShellHookEvent,
  ctx: HookContexts[HookTiming],
  memory: SessionMemory,
): { here: false; why: string } | { here: true; subject: string; names?: readonly string[] } {
  if (MAIN_ONLY.includes(event) && inSubAgent(ctx))
    return { here: false, why: "a sub-agent's turn (SubagentStop runs when it answers)" };
  switch (event) {
    case "SessionStart":
      return memory.started.has(ctx.session.id)
        ? { here: false, why: "session already started" }
        : { here: true, subject: startSource(ctx) };
    case "UserPromptSubmit":
      return ctx.iteration <= 1
        ? { here: true, subject: "" }
        : { here: false, why: "not the turn's first model call" };
    case "PreToolUse":
      return toolSubject((ctx as HookContexts["beforeToolExecution"]).toolName);
    case "PostToolUse":
    case "PostToolUseFailure": {
      const tool = (ctx as HookContexts["afterToolExecution"]).tool;
      const failed = tool.error !== "";
      if (failed !== (event === "PostToolUseFailure"))
        return { here: false, why: failed ? "the tool failed" : "the tool succeeded" };
      return toolSubject(tool.name);
    }
    case "Stop":
      return (ctx as HookContexts["afterResponse"]).calls.length === 0
        ? { here: true, subject: "" }
        : { here: false, why: "the model is calling tools" };
    case "PreCompact":
      return { here: true, subject: trigger(ctx as HookContexts["beforeCompaction"]) };
    case "PostToolBatch":
      return (ctx as HookContexts["beforeChat"]).toolBatch?.length
        ? { here: true, subject: "" }
        : { here: false, why: "no tool calls before this model call" };
    case "StopFailure":
      return { here: true, subject: failureType(ctx as HookContexts["onError"]) };
    case "PostCompact": {
      const c = ctx as HookContexts["afterCompaction"];
      return c.success
        ? { here: true, subject: c.forced ? "manual" : "auto" }
        : { here: false, why: "the compaction did not complete" };
    }
    default:
      return { here: false, why: `${event} is not fired by Islet yet` };
  }
}

function toolSubject(islet: string): { here: true; subject: string; names: readonly string[] } {
  return { here: true, subject: claudeToolName(islet), names: toolNamesFor(islet) };
}

function startSource(ctx: Context): string {
  return ctx.messageCount > 1 ? "resume" : "startup";
}

function trigger(ctx: HookContexts["beforeCompaction"]): string {
  return ctx.forced ? "manual" : "auto";
}

/** Claude's StopFailure error types for Islet's provider error classes. */
const FAILURE_TYPES: Record<string, string> = {
  rate_limit: "rate_limit",
  auth: "authentication_failed",
  credit_exhausted: "billing_error",
  server: "server_error",
  context_exhausted: "invalid_request",
};

function failureType(ctx: HookContexts["onError"]): string {
  return FAILURE_TYPES[ctx.errorType] ?? "unknown";
}

function lastAssistantText(ctx: Context): string {
  for (let i = ctx.turns.length - 1; i >= 0; i--)
    if (ctx.turns[i].role === "assistant") return ctx.turns[i].content;
  return "";
}

/** The stdin object for one event: the common fields, then the event's own. */
export function eventInput(
  event: ShellHookEvent,
  ctx: HookContexts[HookTiming],
  globalHome: string,
  memory: SessionMemory,
): Record<string, unknown> {
  const id = ctx.session.id;
  const common = {
    session_id: id,
    transcript_path: id ? claudeTranscriptPath(globalHome, id) : "",
    cwd: ctx.workdir,
    permission_mode: "default",
    hook_event_name: event,
  };
  switch (event) {
    case "SessionStart":
      return { ...common, source: startSource(ctx) };
    case "UserPromptSubmit":
      return { ...common, prompt: lastUserText(ctx) };
    case "PreToolUse": {
      const c = ctx as HookContexts["beforeToolExecution"];
      return {
        ...common,
        tool_name: claudeToolName(c.toolName),
        tool_input: toClaudeInput(c.toolName, c.arguments),
        tool_use_id: c.toolCallId ?? "",
      };
    }
    case "PostToolUse": {
      const c = ctx as HookContexts["afterToolExecution"];
      const last = c.toolHistory[c.toolHistory.length - 1];
      const args = last && last.name === c.tool.name ? last.args : {};
      return {
        ...common,
        tool_name: claudeToolName(c.tool.name),
        tool_input: toClaudeInput(c.tool.name, args),
        tool_response: claudeToolResponse(c.tool.name, args, c.tool, ctx.workdir),
        tool_use_id: c.toolCallId ?? "",
      };
    }
    case "PostToolUseFailure": {
      const post = eventInput("PostToolUse", ctx, globalHome, memory);
      const c = ctx as HookContexts["afterToolExecution"];
      return {
        ...common,
        tool_name: post.tool_name,
        tool_input: post.tool_input,
        tool_use_id: post.tool_use_id,
        error: c.tool.error,
        is_interrupt: false,
      };
    }
    case "Stop":
      return {
        ...common,
        stop_hook_active: memory.stopActive.has(id),
        last_assistant_message: (ctx as HookContexts["afterResponse"]).content,
      };
    case "PreCompact":
      return {
        ...common,
        trigger: trigger(ctx as HookContexts["beforeCompaction"]),
        custom_instructions: "",
      };
    case "PostToolBatch": {
      const batch = (ctx as HookContexts["beforeChat"]).toolBatch ?? [];
      return {
        ...common,
        tool_calls: batch.map((c) => ({
          tool_name: claudeToolName(c.name),
          tool_input: toClaudeInput(c.name, c.args),
          tool_use_id: c.id,
          tool_response: claudeToolResponse(c.name, c.args, c, ctx.workdir),
        })),
      };
    }
    case "StopFailure": {
      const c = ctx as HookContexts["onError"];
      return {
        ...common,
        error: failureType(c),
        error_details: c.error,
        last_assistant_message: lastAssistantText(ctx),
      };
    }
    case "PostCompact": {
      const c = ctx as HookContexts["afterCompaction"];
      return {
        ...common,
        trigger: c.forced ? "manual" : "auto",
        compact_summary: c.summary ?? "",
      };
    }
    default:
      return common;
  }
}

function lastUserText(ctx: Context): string {
  for (let i = ctx.turns.length - 1; i >= 0; i--)
    if (ctx.turns[i].role === "user") return ctx.turns[i].content;
  return "";
}
