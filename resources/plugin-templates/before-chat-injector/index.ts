/**
 * {{name}}: runs before every model call. It appends a note to the system prompt (for this call
 * only) and, every `remind_every` turns, injects a reminder the model sees once.
 */
import type { BeforeChatContext, Result } from "@islet/sdk";

export function beforeChat(ctx: BeforeChatContext): Result | undefined {
  const note = typeof ctx.pluginConfig.note === "string" ? ctx.pluginConfig.note : "";
  const every = Number(ctx.pluginConfig.remind_every) || 0;
  const result: Result = { request: { appendSystem: note } };
  if (every > 0 && ctx.stats.turns > 0 && ctx.stats.turns % every === 0) {
    result.message = `Reminder: ${note}`;
    result.role = "user";
    result.prefix = "[{{name}}] ";
    result.eject = true;
  }
  console.log(
    `turn ${ctx.stats.turns}: added the note (${ctx.tokens.percent}% of the context used)`,
  );
  return result;
}
