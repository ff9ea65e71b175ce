/**
 * What a finished hook command said, read as Claude Code reads it: exit 0 (stdout starting with
 * `{` is JSON, plain stdout is context for UserPromptSubmit and SessionStart), exit 2 blocks with
 * stderr as the reason, any other exit is a non-blocking error, a timeout never blocks.
 */
import type { ShellHookEvent } from "./config.ts";
import type { HookRun } from "./run-command.ts";
import { cutText } from "../../turn/hook-context.ts";

export interface HookVerdict {
  /** The hook failed (non-blocking): shown to the user, the action proceeds. */
  error?: string;
  /** Block the action (exit 2, `decision: "block"`, PreToolUse `permissionDecision: "deny"`). */
  block?: boolean;
  /** Why it blocked (stderr on exit 2, `reason`, `permissionDecisionReason`). */
  reason?: string;
  /** `continue: false`: stop everything, with `stopReason` for the user. */
  stop?: boolean;
  stopReason?: string;
  /** Text for the model (plain stdout where Claude adds it, `additionalContext`). */
  context?: string;
  /** Shown to the user (`systemMessage`). */
  systemMessage?: string;
  /** `updatedInput` (PreToolUse, a PermissionRequest's allow): the arguments as they should run. */
  updatedInput?: Record<string, unknown>;
  /** PreToolUse `permissionDecision` as given (allow | deny | ask). */
  permission?: string;
  /** PermissionRequest `decision.behavior`: the answer to the approval question. */
  behavior?: "allow" | "deny";
}

/** Events whose plain stdout on exit 0 goes to the model's context. */
const STDOUT_IS_CONTEXT: ReadonlySet<ShellHookEvent> = new Set([
  "UserPromptSubmit",
  "SessionStart",
]);

/** Claude Code's cap on what one hook adds to the model's context (its text, its reason). */
export const HOOK_TEXT_MAX_CHARS = 10_000;

export function readVerdict(event: ShellHookEvent, run: HookRun, timeoutS: number): HookVerdict {
  const v = verdictOf(event, run, timeoutS);
  const cap = (text: string) => cutText(text, HOOK_TEXT_MAX_CHARS, "(hook output is capped)");
  if (v.context !== undefined) v.context = cap(v.context);
  if (v.reason !== undefined) v.reason = cap(v.reason);
  return v;
}

function verdictOf(event: ShellHookEvent, run: HookRun, timeoutS: number): HookVerdict {
  if (run.spawnError) return { error: `could not start: ${run.spawnError}` };
  if (run.timedOut) return { error: `timed out after ${timeoutS} s (stopped; the action goes on)` };
  if (run.code === null) return { error: "stopped" };
  if (run.code === 2) {
    const reason = run.stderr.trim() || "blocked by a hook (exit 2, no reason on stderr)";
    // PermissionRequest: exit 2 denies the permission.
    return event === "PermissionRequest"
      ? { block: true, reason, behavior: "deny" }
      : { block: true, reason };
  }
  if (run.code !== 0) {
    const why = firstLine(run.stderr) || firstLine(run.stdout);
    return { error: `exited with ${run.code}${why ? `: ${why}` : ""}` };
  }
  const out = run.stdout.trim();
  if (out.startsWith("{")) {
    try {
      const json: unknown = JSON.parse(out);
      if (typeof json === "object" && json !== null && !Array.isArray(json))
        return fromJson(event, json as Record<string, unknown>);
    } catch {
      // Not JSON after all: plain output.
    }
  }
  if (out !== "" && STDOUT_IS_CONTEXT.has(event)) return { context: out };
  return {};
}

function fromJson(event: ShellHookEvent, json: Record<string, unknown>): HookVerdict {
  const v: HookVerdict = {};
  const text = (x: unknown) => (typeof x === "string" && x.trim() !== "" ? x : undefined);
  if (json.continue === false) {
    v.stop = true;
    v.stopReason = text(json.stopReason);
  }
  if (text(json.systemMessage)) v.systemMessage = text(json.systemMessage);
  if (json.decision === "block") {
    v.block = true;
    v.reason = text(json.reason);
  }
  const specific = json.hookSpecificOutput;
  if (typeof specific === "object" && specific !== null && !Array.isArray(specific)) {
    const s = specific as Record<string, unknown>;
    if (text(s.additionalContext)) v.context = text(s.additionalContext);
    if (event === "PreToolUse") {
      const decision = s.permissionDecision;
      if (typeof decision === "string") v.permission = decision;
      if (decision === "deny") {
        v.block = true;
        v.reason = text(s.permissionDecisionReason) ?? v.reason;
      }
      const input = s.updatedInput;
      if (typeof input === "object" && input !== null && !Array.isArray(input))
        v.updatedInput = input as Record<string, unknown>;
    }
    if (event === "PermissionRequest") {
      const d = s.decision;
      if (typeof d === "object" && d !== null && !Array.isArray(d)) {
        const decision = d as Record<string, unknown>;
        if (decision.behavior === "allow" || decision.behavior === "deny")
          v.behavior = decision.behavior;
        if (decision.behavior === "deny") v.reason = text(decision.message) ?? v.reason;
        const input = decision.updatedInput;
        if (
          decision.behavior === "allow" &&
          typeof input === "object" &&
          input !== null &&
          !Array.isArray(input)
        )
          v.updatedInput = input as Record<string, unknown>;
      }
    }
  }
  return v;
}

function firstLine(s: string): string {
  return s.trim().split("\n")[0]?.trim() ?? "";
}
