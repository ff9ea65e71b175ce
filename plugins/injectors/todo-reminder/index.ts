/**
 * todo-reminder: every `every` iterations of a turn, while the todo list still has pending or
 * in-progress items, remind the model to look at it. The reminder is a user message that is
 * ejected after the model has seen it once, so it never piles up in history.
 */
import type { BeforeChatContext, Result } from "@islet/sdk";

function positiveInt(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

export function beforeChat(ctx: BeforeChatContext): Result | undefined {
  const every = positiveInt(ctx.pluginConfig, "every", 20);
  const { pending, inProgress, total } = ctx.todo;
  if (pending + inProgress === 0) return undefined;
  if (ctx.iteration === 0 || ctx.iteration % every !== 0) return undefined;

  const open = [
    inProgress > 0 ? `${inProgress} in progress` : "",
    pending > 0 ? `${pending} pending` : "",
  ]
    .filter((part) => part !== "")
    .join(" and ");
  return {
    message:
      `Your todo list still has ${open} (${total} items in all). ` +
      "Check it: carry on with the item in progress or the next pending one, mark finished " +
      "items completed with TodoWrite, and drop items that are no longer needed.",
    role: "user",
    prefix: "[todo-reminder] ",
    eject: true,
  };
}
