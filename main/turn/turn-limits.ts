/**
 * Limits on the tools of the rest of a user turn, added mid-turn (a skill the model loads through
 * the Skill tool, as `/NAME` sets them for its whole turn): allowed tools narrow what is already
 * allowed (never widen it), disallowed ones add to what is withheld.
 */
import { matchesToolPattern } from "../tools/registry.ts";
import type { AgentState } from "./state.ts";

export interface TurnLimits {
  allowedTools?: readonly string[];
  disallowedTools?: readonly string[];
}

export function limitTurn(state: AgentState, limits: TurnLimits): void {
  if (limits.allowedTools && limits.allowedTools.length > 0) {
    const before = state.turnAllowedTools;
    state.turnAllowedTools =
      before === null
        ? [...limits.allowedTools]
        : limits.allowedTools.filter((p) => before.some((b) => matchesToolPattern(p, b)));
  }
  if (limits.disallowedTools) state.turnDisabledTools.push(...limits.disallowedTools);
}
