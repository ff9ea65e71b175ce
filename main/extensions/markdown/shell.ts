/** The shell a command's `` !`cmd` `` lines run in: Bash's approval rule, then the workspace. */
import type { QuestionPort } from "../../host/questions.ts";
import type { ApprovalPolicy } from "../../tools/approval.ts";
import { DEFAULT_MAX_OUTPUT_CHARS, DEFAULT_TIMEOUT_MS } from "../../tools/limits.ts";
import { runShell } from "../../tools/builtin/process-tree.ts";

export function approvedShell(
  approvals: ApprovalPolicy,
  workdir: string,
  questions: QuestionPort | undefined,
): (command: string) => Promise<string> {
  return async (command) => {
    const decision = await approvals.decide("Bash", { command }, { questions });
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
