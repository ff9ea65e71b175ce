/**
 * What a command or skill sets for the rest of a user turn (`/NAME` for its whole turn, a skill the
 * model loads through the Skill tool from then on). As in Claude Code, `allowed-tools` lists
 * permission rules whose calls run without a question while it is active; it takes no tool away.
 * `disallowed-tools` withholds tools.
 */
import { parseClaudeRule, type ClaudeRule } from "../tools/claude-rule.ts";
import type { AgentState } from "./state.ts";

export interface TurnLimits {
  preApproved?: readonly string[];
  disallowedTools?: readonly string[];
}

/** The rules that read (a rule that does not read approves nothing). */
export function claudeRules(texts: readonly string[] | undefined): ClaudeRule[] {
  return (texts ?? []).flatMap((text) => {
    const rule = parseClaudeRule(text);
    return "error" in rule ? [] : [rule];
  });
}

export function limitTurn(state: AgentState, limits: TurnLimits): void {
  state.turnPreApproved.push(...claudeRules(limits.preApproved));
  if (limits.disallowedTools) state.turnDisabledTools.push(...limits.disallowedTools);
}
