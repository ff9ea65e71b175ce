/**
 * session-stats: every `every` model turns, a one-line summary of the session so far: turns,
 * tool calls and failures, context usage, the most used tools, tokens and time. It is a notice
 * for the user by default; with `to_model: true` the model gets it too (ejected after one turn).
 */
import type { BeforeChatContext, Result } from "@islet/sdk";

function positiveInt(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** 12345 → "12,345" (no Intl: it is not guaranteed inside the sandbox). */
function grouped(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function elapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

function summarize(ctx: BeforeChatContext, top: number): string {
  const { stats, tokens } = ctx;
  const failed = stats.tools.errors > 0 ? ` (${stats.tools.errors} failed)` : "";
  const context =
    tokens.max > 0
      ? `context ${grouped(tokens.estimate)} tokens (${Math.round(tokens.percent)}% of ${grouped(tokens.max)})`
      : `context ${grouped(tokens.estimate)} tokens`;
  const tools = stats.topTools
    .slice(0, top)
    .map((t) => `${t.name} ${t.count}`)
    .join(", ");
  return [
    `Session stats: ${stats.turns} turns`,
    `${stats.tools.calls} tool calls${failed}`,
    context,
    `top tools: ${tools || "none"}`,
    `tokens in/out ${grouped(stats.tokens.in)}/${grouped(stats.tokens.out)}`,
    elapsed(stats.duration),
  ].join(" | ");
}

// Package-level state lives for the session (and resets on reload).
let lastShown = 0;

export function beforeChat(ctx: BeforeChatContext): Result | undefined {
  const every = positiveInt(ctx.pluginConfig, "every", 5);
  const turns = ctx.stats.turns;
  if (turns === 0 || turns % every !== 0 || turns === lastShown) return undefined;
  lastShown = turns;
  const text = summarize(ctx, positiveInt(ctx.pluginConfig, "top", 3));
  if (ctx.pluginConfig.to_model === true)
    return { message: text, role: "user", prefix: "[session-stats] ", eject: true };
  return { notice: text };
}
