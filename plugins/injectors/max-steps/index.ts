/**
 * max-steps: once a turn has used its tool iterations, withhold every tool (disableTools ["*"])
 * and tell the model to wrap up. The message is ejected after the model has seen it; it comes
 * again on every further iteration, since the tools stay withheld for the rest of the turn.
 */
import type { BeforeChatContext, Result } from "@islet/sdk";

function nonNegativeInt(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : fallback;
}

export function beforeChat(ctx: BeforeChatContext): Result | undefined {
  // The engine stops a turn after ctx.maxSteps iterations; keeping the last one for the
  // wrap-up means the model always gets to say where it stands.
  const max = nonNegativeInt(ctx.pluginConfig, "max", 0) || ctx.maxSteps - 1;
  if (max < 1 || ctx.iteration <= max) return undefined;
  return {
    message:
      `You have used all ${max} tool steps for this request, so tools are disabled now. ` +
      "Do not call any tool. Wrap up: tell the user what you did, what is still unfinished, " +
      "and what the next step would be.",
    role: "user",
    prefix: "[max-steps] ",
    eject: true,
    disableTools: ["*"],
  };
}
