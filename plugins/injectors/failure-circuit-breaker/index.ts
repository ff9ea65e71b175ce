/**
 * failure-circuit-breaker: when `max_failures` different tool calls fail in a row, stop: tell
 * the model to stop calling tools and report to the user, and withhold every tool for the rest
 * of the user turn. A successful call, a new user turn or a trip resets the count.
 */
import type { AfterToolContext, BeforeChatContext, Result } from "@islet/sdk";

function positiveInt(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

function firstLine(text: string, max: number): string {
  const line = text.split("\n", 1)[0].trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

interface Failure {
  /** Tool name and JSON arguments: what makes two failures "the same". */
  key: string;
  name: string;
  error: string;
}

// The current run of failed calls, and the user turn it belongs to.
let turn = -1;
let failures: Failure[] = [];
// The user turn in which the breaker tripped: tools stay off until the next one.
let trippedIn = -1;

export function afterToolExecution(ctx: AfterToolContext): Result | undefined {
  if (ctx.stats.interactions !== turn) {
    turn = ctx.stats.interactions;
    failures = [];
  }
  if (ctx.tool.error === "") {
    failures = [];
    return undefined;
  }
  // The engine records the current call before this hook runs: it is the last entry.
  const call = ctx.toolHistory.at(-1);
  const key = call ? `${call.name} ${call.argsJson}` : ctx.tool.name;
  if (!failures.some((f) => f.key === key))
    failures.push({ key, name: ctx.tool.name, error: ctx.tool.error });
  const max = Math.max(2, positiveInt(ctx.pluginConfig, "max_failures", 3));
  if (failures.length < max) return undefined;

  const list = failures.map((f) => `- ${f.name}: ${firstLine(f.error, 160)}`).join("\n");
  const count = failures.length;
  failures = [];
  trippedIn = ctx.stats.interactions;
  return {
    message:
      `${count} different tool calls failed in a row:\n${list}\n` +
      "Stop calling tools: they are disabled for the rest of this request. Tell the user what " +
      "you were trying to do, what failed and why, and what they could do about it.",
    role: "user",
    prefix: "[failure-circuit-breaker] ",
    disableTools: ["*"],
  };
}

export function beforeChat(ctx: BeforeChatContext): Result | undefined {
  if (trippedIn !== ctx.stats.interactions) return undefined;
  return { disableTools: ["*"] };
}
