/**
 * A hook command's verdict as an Islet hook Result, per event, so that the pipeline applies it
 * like any plugin's and the hook timeline shows what it changed. Claude Code's rules:
 * - PreToolUse: block refuses the call with the reason (the model sees it); updatedInput rewrites
 *   the arguments; "allow" and "ask" leave the approval policy in charge.
 * - PostToolUse: the tool already ran; a block's reason is added to its output for the model.
 * - UserPromptSubmit: block drops the prompt (the user sees why); context goes to the model.
 * - SessionStart: context goes to the model.
 * - Stop: block keeps the model going with the reason as its next instruction.
 * - PreCompact: block skips the compaction.
 * `continue: false` stops what can be stopped at that point and shows `stopReason`.
 */
import type { BeforeToolResult, Result } from "../../../plugins/sdk/index.ts";
import type { HookContexts, HookTiming } from "../../turn/hooks/types.ts";
import type { ShellHookEvent } from "./config.ts";
import type { HookVerdict } from "./output.ts";
import { toIsletInput } from "../../tools/claude-names.ts";

export function verdictResult(
  event: ShellHookEvent,
  v: HookVerdict,
  ctx: HookContexts[HookTiming],
): Result | BeforeToolResult | undefined {
  const stopNote = v.stop ? (v.stopReason ?? `stopped by a ${event} hook`) : undefined;
  const context = (text: string | undefined): Result =>
    text ? { message: text, role: "user" } : {};
  // A notice hides a message in the pipeline: only say it when nothing goes to the model.
  const notice = (r: Result, text: string | undefined): Result =>
    text && !r.message ? { ...r, notice: text } : r;
  switch (event) {
    case "PreToolUse": {
      if (v.block || v.stop) {
        return { block: true, message: v.reason ?? stopNote ?? "blocked by a PreToolUse hook" };
      }
      const r: BeforeToolResult = context(v.context);
      if (v.updatedInput) {
        const c = ctx as HookContexts["beforeToolExecution"];
        // Claude merges: fields not named keep their values. The hook wrote Claude's fields.
        r.arguments = { ...c.arguments, ...toIsletInput(c.toolName, v.updatedInput) };
      }
      return notice(r, v.systemMessage);
    }
    case "PostToolUse": {
      const c = ctx as HookContexts["afterToolExecution"];
      const r: Result = context(v.context);
      if (v.block && v.reason) r.output = `${c.tool.result || c.tool.error}\n\n${v.reason}`;
      return notice(r, stopNote ?? v.systemMessage);
    }
    case "UserPromptSubmit":
    case "SessionStart": {
      if ((event === "UserPromptSubmit" && v.block) || v.stop) {
        const why = v.block ? `Prompt blocked: ${v.reason ?? "by a hook"}` : stopNote;
        return { request: { skip: true }, notice: why };
      }
      return notice(context(v.context), v.systemMessage);
    }
    case "Stop": {
      if (v.block && !v.stop) {
        return { message: v.reason ?? "A Stop hook asked you to continue.", role: "user" };
      }
      return notice({}, stopNote ?? v.systemMessage);
    }
    case "PreCompact": {
      if (v.block || v.stop) {
        return {
          compaction: { skip: true },
          notice: `Compaction skipped: ${v.reason ?? stopNote ?? "by a hook"}`,
        };
      }
      return notice({}, v.systemMessage);
    }
    default:
      return undefined;
  }
}
