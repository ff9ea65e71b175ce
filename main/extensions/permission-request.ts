/**
 * Claude Code's PermissionRequest hooks answer the approval question a person was about to be
 * asked. A hook runs commands of its own and could say yes to anything, so the answer is folded
 * with care (docs/security.md): any hook's `deny` stands (saying no is always safe); an `allow`
 * stands only from the user's own hook files in the global home, never from a plugin's hooks or
 * a project's, whose allow is ignored and said; and the person is asked as usual.
 */

/** What one PermissionRequest hook answered. */
export interface PermissionAnswer {
  behavior: "allow" | "deny";
  /** The hook (`file:PermissionRequest`, `plugin:PermissionRequest`). */
  by: string;
  message?: string;
  /** An allow's `updatedInput`: the call's arguments as the hook would have them run. */
  arguments?: Record<string, unknown>;
  /** Whether its `allow` may stand: only the user's own hook files in the global home. */
  mayApprove: boolean;
}

export interface PermissionOutcome {
  /**
   * The hooks' answer; absent: ask the person. `arguments`: an allow that changed the call's
   * input (the tool phase checks them again before the call runs).
   */
  decision?: {
    allowed: boolean;
    by: string;
    message?: string;
    arguments?: Record<string, unknown>;
  };
  /** Lines for the conversation: what a hook decided, or an allow that was not honoured. */
  notes: string[];
}

export function foldPermissionAnswers(
  tool: string,
  answers: readonly PermissionAnswer[],
): PermissionOutcome {
  const notes: string[] = [];
  const deny = answers.find((a) => a.behavior === "deny");
  for (const a of answers)
    if (a.behavior === "allow" && !a.mayApprove)
      notes.push(
        `${a.by} tried to allow ${tool}; only your own hook files in the global home may approve a call, so it was ignored`,
      );
  if (deny) {
    notes.push(`${tool} denied by ${deny.by}${deny.message ? `: ${deny.message}` : ""}`);
    return {
      decision: { allowed: false, by: deny.by, ...(deny.message ? { message: deny.message } : {}) },
      notes,
    };
  }
  const allow = answers.find((a) => a.behavior === "allow" && a.mayApprove);
  // Only a hook that may approve may change what runs: an ignored allow's input goes with it.
  if (allow)
    return {
      decision: {
        allowed: true,
        by: allow.by,
        ...(allow.arguments ? { arguments: allow.arguments } : {}),
      },
      notes,
    };
  return { notes };
}
