/** The shell a command's `` !`cmd` `` lines run in: Bash's approval rule, then the workspace. */
import type { QuestionPort } from "../../host/questions.ts";
import type { ApprovalPolicy } from "../../tools/approval.ts";
import { DEFAULT_MAX_OUTPUT_CHARS, DEFAULT_TIMEOUT_MS } from "../../tools/limits.ts";
import { runShell } from "../../tools/builtin/process-tree.ts";

type Decide = (command: string) => Promise<{ allowed: boolean; reason?: string }>;

export function approvedShell(
  approvals: ApprovalPolicy,
  workdir: string,
  questions: QuestionPort | undefined,
): (command: string) => Promise<string> {
  return shellDecidedBy(workdir, (command) => approvals.decide("Bash", { command }, { questions }));
}

/** The same shell, approved by `decide` (a conversation's approval, as the Skill tool has it). */
export function shellDecidedBy(
  workdir: string,
  decide: Decide,
): (command: string) => Promise<string> {
  return async (command) => {
    const decision = await decide(command);
    if (!decision.allowed)
      throw new Error(`!\`${command}\` was not run: ${decision.reason ?? "not approved"}`);
    const result = await runShell(command, {
      cwd: workdir,
      signal: AbortSignal.timeout(DEFAULT_TIMEOUT_MS),
      keepChars: DEFAULT_MAX_OUTPUT_CHARS,
    });
    if (result.aborted !== undefined) throw new Error(`!\`${command}\` timed out and was killed`);
    return result.output;
  };
}
