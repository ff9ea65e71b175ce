/**
 * done-reminder: a response with text but no tool calls ends the model's work on a turn. If the
 * Done tool was offered, remind the model (as the user) to call it when the task is complete, or
 * to keep working if it is not. At most `max_reminders` per user turn. Empty responses are left
 * to empty-response.
 */
import type { AfterResponseContext, Result } from "@islet/sdk";

function nonNegativeInt(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : fallback;
}

// Reminders given in the current user turn (ctx.stats.interactions counts user turns).
let turn = -1;
let reminders = 0;

export function afterResponse(ctx: AfterResponseContext): Result | undefined {
  const tool =
    typeof ctx.pluginConfig.tool === "string" && ctx.pluginConfig.tool !== ""
      ? ctx.pluginConfig.tool
      : "Done";
  if (ctx.calls.length > 0 || ctx.content.trim() === "") return undefined;
  if (!ctx.availableTools.includes(tool)) return undefined;
  if (ctx.stats.interactions !== turn) {
    turn = ctx.stats.interactions;
    reminders = 0;
  }
  if (reminders >= nonNegativeInt(ctx.pluginConfig, "max_reminders", 2)) return undefined;
  reminders++;
  return {
    message:
      `You stopped without calling ${tool}. If the task is complete, call ${tool} with a short ` +
      "summary of what you did. If it is not, keep working on it.",
    role: "user",
    prefix: "[done-reminder] ",
    eject: true,
  };
}
