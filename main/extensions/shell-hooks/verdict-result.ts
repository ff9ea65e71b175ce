/**
 * A hook command's verdict as an Islet hook Result, per event, so that the pipeline applies it
 * like any plugin's and the hook timeline shows what it changed. Claude Code's rules:
 * - PreToolUse: block refuses the call with the reason (the model sees it, the user sees
 *   `systemMessage`); updatedInput rewrites the arguments; "allow" and "ask" leave the approval
 *   policy in charge.
 * - PostToolUse / PostToolUseFailure: the tool already ran; a block's reason is added to its
 *   output for the model.
 * - UserPromptSubmit: block drops the prompt (the user sees why); context goes to the model.
 * - SessionStart: context goes to the model, before the turn's prompt.
 * - Stop: block keeps the model going with the reason as its next instruction.
 * `systemMessage` is shown to the user on every event, beside what else the verdict does.
 * - PreCompact: block skips the compaction.
 * - PostToolBatch: block and context reach the model before its next call.
 * - PostCompact and StopFailure decide nothing.
 * `continue: false` stops what can be stopped at that point and shows `stopReason`: on the tool
 * events the turn ends once the step's results are in.
 */
import type { BeforeToolResult, Result } from "../../../plugins/sdk/index.ts";
import type { EngineExtras, HookContexts, HookTiming } from "../../turn/hooks/types.ts";
import type { ShellHookEvent } from "./config.ts";
import type { HookVerdict } from "./output.ts";
import { toIsletInput } from "../../tools/claude-names.ts";

type Out = Result & EngineExtras;

export function verdictResult(
  event: ShellHookEvent,
  v: HookVerdict,
  ctx: HookContexts[HookTiming],
): Out | (BeforeToolResult & EngineExtras) | undefined {
  const stopNote = v.stop ? (v.stopReason ?? `stopped by a ${event} hook`) : undefined;
  // systemMessage is shown whatever else the verdict does.
  const base = (): Out => (v.systemMessage ? { shown: v.systemMessage } : {});
  const context = (r: Out): Out => (v.context ? { ...r, message: v.context, role: "user" } : r);
  switch (event) {
    case "PreToolUse": {
      if (v.block || v.stop) {
        const r: BeforeToolResult & EngineExtras = {
          ...base(),
          block: true,
          message: v.reason ?? stopNote ?? "blocked by a PreToolUse hook",
        };
        if (stopNote) r.stopTurn = stopNote;
        return r;
      }
      const r: BeforeToolResult & EngineExtras = context(base());
      if (v.updatedInput) {
        const c = ctx as HookContexts["beforeToolExecution"];
        // Claude merges: fields not named keep their values. The hook wrote Claude's fields.
        r.arguments = { ...c.arguments, ...toIsletInput(c.toolName, v.updatedInput) };
      }
      return r;
    }
    case "PostToolUse":
    case "PostToolUseFailure": {
      const c = ctx as HookContexts["afterToolExecution"];
      const r = context(base());
      if (v.block && v.reason) r.output = `${c.tool.result || c.tool.error}\n\n${v.reason}`;
      if (stopNote) r.stopTurn = stopNote;
      return r;
    }
    case "UserPromptSubmit":
    case "SessionStart": {
      if ((event === "UserPromptSubmit" && v.block) || v.stop) {
        const why = v.block ? `Prompt blocked: ${v.reason ?? "by a hook"}` : stopNote;
        return { request: { skip: true }, notice: why };
      }
      const r = context(base());
      // Claude puts SessionStart's context in before the first prompt.
      if (event === "SessionStart" && r.message) r.beforePrompt = true;
      return r;
    }
    case "Stop": {
      if (v.block && !v.stop) {
        return {
          ...base(),
          message: v.reason ?? "A Stop hook asked you to continue.",
          role: "user",
        };
      }
      return stopNote ? { notice: stopNote, ...base() } : base();
    }
    case "PreCompact": {
      if (v.block || v.stop) {
        return {
          ...base(),
          compaction: { skip: true },
          notice: `Compaction skipped: ${v.reason ?? stopNote ?? "by a hook"}`,
        };
      }
      return base();
    }
    case "PostToolBatch": {
      // Before the next model call: a block's reason and any context reach the model with the
      // results; `continue: false` ends the turn before that call.
      if (v.stop) return { ...base(), request: { skip: true }, notice: stopNote };
      const r = context(base());
      if (v.block) {
        const why = v.reason ?? "A PostToolBatch hook objected to these tool results.";
        r.message = r.message ? `${why}\n\n${r.message}` : why;
        r.role = "user";
      }
      return r;
    }
    case "PostCompact":
      // Claude's PostCompact decides nothing; what it says is shown.
      return v.systemMessage ? { notice: v.systemMessage } : undefined;
    default:
      // StopFailure: the turn ends with its error whatever the hook says (Claude ignores it).
      return undefined;
  }
}
