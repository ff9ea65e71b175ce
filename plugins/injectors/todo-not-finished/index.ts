/**
 * todo-not-finished: a response without tool calls ends the model's work on a turn. If the todo
 * list still has pending or in-progress items at that point, tell the model (as the user) to
 * carry on or to update the list. At most `max_reminders` per user turn; then tell the user.
 */
import type { AfterResponseContext, Result } from "@islet/sdk";

function nonNegativeInt(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : fallback;
}

// Warnings given in the current user turn (ctx.stats.interactions counts user turns).
let turn = -1;
let warnings = 0;

export function afterResponse(ctx: AfterResponseContext): Result | undefined {
  const { pending, inProgress, total } = ctx.todo;
  if (ctx.calls.length > 0 || pending + inProgress === 0) return undefined;
  if (ctx.stats.interactions !== turn) {
    turn = ctx.stats.interactions;
    warnings = 0;
  }
  const max = nonNegativeInt(ctx.pluginConfig, "max_reminders", 3);
  warnings++;
  const open = [
    inProgress > 0 ? `${inProgress} in progress` : "",
    pending > 0 ? `${pending} pending` : "",
  ]
    .filter((part) => part !== "")
    .join(" and ");
  if (warnings > max) {
    if (warnings === max + 1)
      return { notice: `The model stopped with ${open} todo items of ${total} still open.` };
    return undefined;
  }
  return {
    message:
      `You stopped, but your todo list still has ${open} (${total} items in all). ` +
      "Continue with the next open item. If an item is no longer needed or cannot be done, " +
      "update the list with TodoWrite and say why.",
    role: "user",
    prefix: "[todo-not-finished] ",
    eject: true,
  };
}
