/**
 * empty-response: when a response has neither text nor tool calls, ask the model (as the user)
 * to continue. At most `max_retries` nudges per user turn; then tell the user instead, once.
 */
import type { AfterResponseContext, Result } from "@islet/sdk";

function nonNegativeInt(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : fallback;
}

// Nudges given in the current user turn (ctx.stats.interactions counts user turns).
let turn = -1;
let nudges = 0;

export function afterResponse(ctx: AfterResponseContext): Result | undefined {
  if (ctx.calls.length > 0 || ctx.content.trim() !== "") return undefined;
  if (ctx.stats.interactions !== turn) {
    turn = ctx.stats.interactions;
    nudges = 0;
  }
  const max = nonNegativeInt(ctx.pluginConfig, "max_retries", 2);
  nudges++;
  if (nudges > max) {
    if (nudges === max + 1)
      return {
        notice: `The model answered with nothing ${nudges} times in a row; try rephrasing the request or another model.`,
      };
    return undefined;
  }
  const what =
    ctx.thinking.trim() !== ""
      ? "Your last response had reasoning but no answer and no tool call."
      : "Your last response was empty.";
  return {
    message: `${what} Please continue: answer the request above, or call a tool if you need one.`,
    role: "user",
    prefix: "[empty-response] ",
    eject: true,
  };
}
