/**
 * {{name}}: a slash command. `command()` names it and says how it behaves; `executeCommand()`
 * runs when the user types /{{name}} with whatever follows as `args`.
 */
import type { CommandResult, CommandSchema, Context } from "@islet/sdk";

export function command(): CommandSchema {
  return {
    name: "{{name}}",
    description: "Shows how far the conversation has got",
    hints: "[note]",
    forward: false,
    silent: false,
  };
}

export function executeCommand(args: string, ctx: Context): CommandResult {
  const note = args.trim() === "" ? "" : ` Note: ${args.trim()}`;
  return {
    output:
      `${ctx.stats.turns} turns, ${ctx.stats.tools.calls} tool calls, ` +
      `${ctx.tokens.percent}% of the context used.${note}`,
  };
}
