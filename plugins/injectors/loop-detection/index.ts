/**
 * loop-detection: after each tool call, count how many of the latest calls were identical (same
 * tool, same JSON arguments). At `threshold` identical calls in a row, and at every further
 * `threshold`, tell the model it is going round in circles.
 */
import type { AfterToolContext, Result } from "@islet/sdk";

function positiveInt(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function afterToolExecution(ctx: AfterToolContext): Result | undefined {
  const threshold = Math.max(2, positiveInt(ctx.pluginConfig, "threshold", 3));
  // The engine records the current call before this hook runs: it is the last entry.
  const history = ctx.toolHistory;
  const last = history.at(-1);
  if (!last) return undefined;
  let repeats = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    if (history[i].name !== last.name || history[i].argsJson !== last.argsJson) break;
    repeats++;
  }
  if (repeats < threshold || (repeats - threshold) % threshold !== 0) return undefined;
  return {
    message:
      `You have called ${last.name} ${repeats} times in a row with the same arguments ` +
      `(${shorten(last.argsJson, 200)}). Repeating it will not give a different result. ` +
      "Stop and change approach: use what the earlier calls returned, try different arguments " +
      "or another tool, or tell the user what is blocking you.",
    role: "user",
    prefix: "[loop-detection] ",
  };
}
