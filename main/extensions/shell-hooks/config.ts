/**
 * Reads shell hook definitions in Claude Code's format (hooks.json, settings-style `hooks:`) and
 * its YAML twin (`config/hooks/*.yaml`). Lenient as Claude Code is: an unknown event or field is
 * a warning, a broken entry one line naming file and field, and every other entry still loads.
 */
import { parse as parseYaml } from "yaml";
import type { Problem } from "../../host/problem.ts";
import { parseClaudeRule, type ClaudeRule } from "../../tools/claude-rule.ts";

/** Claude Code's hook events, in the order a session reaches them. */
export const SHELL_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "PermissionRequest",
  "Notification",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "SessionEnd",
] as const;

export type ShellHookEvent = (typeof SHELL_HOOK_EVENTS)[number];

/**
 * Claude Code's other events (its hooks reference): Islet has no point that matches them, so a
 * file's hooks for them load as a warning naming the event instead of running.
 */
const CLAUDE_EVENTS_NOT_RUN: ReadonlySet<string> = new Set([
  "Setup",
  "PermissionDenied",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "Elicitation",
  "ElicitationResult",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "ConfigChange",
  "WorktreeCreate",
  "WorktreeRemove",
]);

/** Claude Code's default time limit for one hook command. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** One command to run at one event. */
export interface ShellHookSpec {
  event: ShellHookEvent;
  /** As written ("" = every one). */
  matcher: string;
  command: string;
  timeoutS: number;
  /** The file it came from (for messages and the plugin browser). */
  file: string;
  /** Index path in the file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  field: string;
  /** `if`: runs only for tool calls this permission rule covers (`Bash(git commit:*)`). */
  if?: ClaudeRule;
  /**
   * `async: true`: started and not waited for (its output is not read). `asyncRewake: true`: the
   * same, and what it says when it ends (exit 2, a reason or context) reaches the model at its
   * next step, after `rewakeMessage`.
   */
  background?: "async" | "rewake";
  rewakeMessage?: string;
  /** `rewakeSummary`: the user's one line when what it found reaches the model. */
  rewakeSummary?: string;
  /** `statusMessage`: shown while the command runs (Claude's spinner text). */
  statusMessage?: string;
}

/** Where a hook came from: who it is shown as, what it may do. */
export interface ShellHookOrigin {
  /** Shown as the hook's source: a file name for the user's hooks, a plugin's name. */
  label: string;
  /** A Claude Code plugin's folder (CLAUDE_PLUGIN_ROOT); none for the user's own hooks. */
  pluginRoot?: string;
  /** Its data folder (CLAUDE_PLUGIN_DATA). */
  pluginData?: string;
  /**
   * A PermissionRequest `allow` from it answers the approval question: only for the user's own
   * hook files in the global home, never a plugin's or a project's (docs/security.md).
   */
  mayApprove?: boolean;
}

export interface ParsedHooks {
  hooks: ShellHookSpec[];
  /** Broken entries: one each, naming file and field. */
  errors: Problem[];
  /** Unknown events and fields: one each; the rest loads. */
  warnings: Problem[];
}

/** A problem with a hook file (its field leads the title). */
export function hookProblem(file: string, title: string): Problem {
  return { source: "shell-hooks", file, title };
}

const KNOWN_TOP = new Set(["hooks", "description", "$schema"]);
const KNOWN_GROUP = new Set(["matcher", "hooks"]);
const KNOWN_HOOK = new Set([
  "type",
  "command",
  "timeout",
  "statusMessage",
  "async",
  "asyncRewake",
  "rewakeMessage",
  "rewakeSummary",
  "if",
  "shell",
]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isEvent(name: string): name is ShellHookEvent {
  return (SHELL_HOOK_EVENTS as readonly string[]).includes(name);
}

/** Parses a file's text: JSON for `.json`, YAML otherwise (YAML also reads JSON). */
export function parseHooksFile(file: string, text: string): ParsedHooks {
  const out: ParsedHooks = { hooks: [], errors: [], warnings: [] };
  let data: unknown;
  try {
    data = file.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).split("\n")[0];
    out.errors.push(
      hookProblem(file, `not valid ${file.endsWith(".json") ? "JSON" : "YAML"}: ${why}`),
    );
    return out;
  }
  return readHooksData(file, data);
}

/** Reads already-parsed hook definitions (a file's, or a plugin manifest's inline `hooks`). */
export function readHooksData(file: string, data: unknown): ParsedHooks {
  const out: ParsedHooks = { hooks: [], errors: [], warnings: [] };
  if (data === null || data === undefined) return out; // an empty file defines nothing
  if (!isRecord(data)) {
    out.errors.push(
      hookProblem(file, `expected a map of events (or "hooks": {…}), got ${kind(data)}`),
    );
    return out;
  }
  // Claude's files wrap the events in `hooks`; the Islet YAML may list them at the top.
  const wrapped = isRecord(data.hooks);
  const events = wrapped ? (data.hooks as Record<string, unknown>) : data;
  const prefix = wrapped ? "hooks." : "";
  if (wrapped) {
    for (const key of Object.keys(data))
      if (!KNOWN_TOP.has(key))
        out.warnings.push(hookProblem(file, `unknown field "${key}" ignored`));
  } else if ("hooks" in data) {
    out.errors.push(
      hookProblem(file, `field "hooks": expected a map of events, got ${kind(data.hooks)}`),
    );
    return out;
  }
  for (const [event, groups] of Object.entries(events)) {
    if (!wrapped && (event === "description" || event === "$schema")) continue;
    const at = `${prefix}${event}`;
    if (!isEvent(event)) {
      const title = CLAUDE_EVENTS_NOT_RUN.has(event)
        ? `field "${at}": Islet does not run Claude Code's ${event} event; its hooks are ignored`
        : `unknown hook event "${event}" ignored (known: ${SHELL_HOOK_EVENTS.join(", ")})`;
      out.warnings.push(hookProblem(file, title));
      continue;
    }
    if (!Array.isArray(groups)) {
      out.errors.push(
        hookProblem(file, `field "${at}": expected a list of matchers, got ${kind(groups)}`),
      );
      continue;
    }
    groups.forEach((group, g) => readGroup(file, event, `${at}[${g}]`, group, out));
  }
  return out;
}

function readGroup(
  file: string,
  event: ShellHookEvent,
  at: string,
  group: unknown,
  out: ParsedHooks,
): void {
  if (!isRecord(group)) {
    out.errors.push(
      hookProblem(file, `field "${at}": expected { matcher, hooks }, got ${kind(group)}`),
    );
    return;
  }
  for (const key of Object.keys(group))
    if (!KNOWN_GROUP.has(key))
      out.warnings.push(hookProblem(file, `unknown field "${at}.${key}" ignored`));
  const matcher = group.matcher ?? "";
  if (typeof matcher !== "string") {
    out.errors.push(
      hookProblem(file, `field "${at}.matcher": expected text, got ${kind(matcher)}`),
    );
    return;
  }
  if (!Array.isArray(group.hooks)) {
    out.errors.push(
      hookProblem(file, `field "${at}.hooks": expected a list, got ${kind(group.hooks)}`),
    );
    return;
  }
  group.hooks.forEach((hook: unknown, h: number) => {
    const field = `${at}.hooks[${h}]`;
    if (!isRecord(hook)) {
      out.errors.push(
        hookProblem(file, `field "${field}": expected { type, command }, got ${kind(hook)}`),
      );
      return;
    }
    for (const key of Object.keys(hook))
      if (!KNOWN_HOOK.has(key))
        out.warnings.push(hookProblem(file, `unknown field "${field}.${key}" ignored`));
    // Claude Code's `shell` picks bash (its default) or PowerShell; Islet runs hooks in the
    // user's shell (cmd on Windows), so only another choice than bash is worth a line.
    if (hook.shell !== undefined && hook.shell !== "bash")
      out.warnings.push(
        hookProblem(
          file,
          `field "${field}.shell": ${kind(hook.shell)} is not supported; the command runs in your shell ($SHELL; cmd on Windows)`,
        ),
      );
    const type = hook.type ?? "command";
    if (type !== "command") {
      out.warnings.push(
        hookProblem(
          file,
          `field "${field}.type": "${String(type)}" hooks are not supported; ignored`,
        ),
      );
      return;
    }
    if (typeof hook.command !== "string" || hook.command.trim() === "") {
      out.errors.push(
        hookProblem(
          file,
          `field "${field}.command": expected a command line, got ${kind(hook.command)}`,
        ),
      );
      return;
    }
    let timeoutS = DEFAULT_HOOK_TIMEOUT_S;
    if (hook.timeout !== undefined) {
      if (typeof hook.timeout !== "number" || !(hook.timeout > 0)) {
        out.errors.push(
          hookProblem(
            file,
            `field "${field}.timeout": expected seconds (a positive number), got ${kind(hook.timeout)}`,
          ),
        );
        return;
      }
      timeoutS = hook.timeout;
    }
    const spec: ShellHookSpec = { event, matcher, command: hook.command, timeoutS, file, field };
    if (hook.if !== undefined) {
      const rule = typeof hook.if === "string" ? parseClaudeRule(hook.if) : null;
      if (!rule || "error" in rule) {
        const why = rule
          ? rule.error
          : `expected a rule such as "Bash(git commit:*)", got ${kind(hook.if)}`;
        out.errors.push(hookProblem(file, `field "${field}.if": ${why}`));
        return;
      }
      spec.if = rule;
    }
    if (hook.asyncRewake === true) spec.background = "rewake";
    else if (hook.async === true) spec.background = "async";
    if (typeof hook.rewakeMessage === "string") spec.rewakeMessage = hook.rewakeMessage;
    if (typeof hook.rewakeSummary === "string" && hook.rewakeSummary.trim() !== "")
      spec.rewakeSummary = hook.rewakeSummary.trim();
    if (typeof hook.statusMessage === "string" && hook.statusMessage.trim() !== "")
      spec.statusMessage = hook.statusMessage.trim();
    out.hooks.push(spec);
  });
}

function kind(v: unknown): string {
  if (v === undefined || v === null) return "nothing";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a map";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 37) + "…" : v);
  return String(v);
}
