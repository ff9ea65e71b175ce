/**
 * Claude Code's matcher rule: empty or `*` matches everything; only letters, digits, `_`, `-`,
 * space, `|` and `,` means exact names separated by `|` or `,`; anything else is an unanchored
 * JavaScript regex. A regex that does not compile matches nothing (reported once at load). And
 * a command's `if` rule for tool events.
 */
import type { HookContexts, HookTiming } from "../../turn/hooks/types.ts";
import { ruleMatches } from "../../tools/claude-rule.ts";
import type { ShellHookSpec } from "./config.ts";

const EXACT = /^[A-Za-z0-9_\- |,]*$/;

export type Matcher = (name: string) => boolean;

export function compileMatcher(matcher: string): { match: Matcher; error?: string } {
  const m = matcher.trim();
  if (m === "" || m === "*") return { match: () => true };
  if (EXACT.test(m)) {
    const names = new Set(
      m
        .split(/[|,]/)
        .map((s) => s.trim())
        .filter((s) => s !== ""),
    );
    return { match: (name) => names.has(name) };
  }
  try {
    const re = new RegExp(m);
    return { match: (name) => re.test(name) };
  } catch (err) {
    return {
      match: () => false,
      error: `matcher "${m}" is not a valid regex: ${(err as Error).message}`,
    };
  }
}

/** Whether a tool event's call is one the hook's `if` rule covers (other events: always). */
export function coversCall(spec: ShellHookSpec, ctx: HookContexts[HookTiming]): boolean {
  if (!spec.if) return true;
  let call: { toolName: string; args: Record<string, unknown> } | null = null;
  if ("toolName" in ctx) call = { toolName: ctx.toolName, args: ctx.arguments };
  else if ("tool" in ctx) {
    // PostToolUse: the call's arguments are the tool history's last entry (as its input says).
    const last = ctx.toolHistory[ctx.toolHistory.length - 1];
    call = { toolName: ctx.tool.name, args: last?.name === ctx.tool.name ? last.args : {} };
  }
  if (!call) return true;
  return ruleMatches(spec.if, { ...call, workdir: ctx.workdir }, "any");
}
