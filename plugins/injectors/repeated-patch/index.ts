/**
 * repeated-patch: the engine counts successful Patch and Write calls per file (ctx.patchCounts).
 * When a file reaches `threshold` changes, and every `threshold` changes after that, tell the
 * model to step back and make one considered edit instead of many small ones.
 */
import type { AfterToolContext, Result } from "@islet/sdk";

/** The tools the engine counts in ctx.patchCounts. */
const COUNTED = new Set(["Patch", "Write"]);

function positiveInt(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

export function afterToolExecution(ctx: AfterToolContext): Result | undefined {
  if (ctx.tool.error !== "" || !COUNTED.has(ctx.tool.name)) return undefined;
  // The engine records the current call before this hook runs: it is the last entry.
  const path = ctx.toolHistory.at(-1)?.args.path;
  if (typeof path !== "string") return undefined;
  const count = ctx.patchCounts[path] ?? 0;
  const threshold = positiveInt(ctx.pluginConfig, "threshold", 5);
  if (count < threshold || count % threshold !== 0) return undefined;
  return {
    message:
      `You have changed ${path} ${count} times in this session. Many small edits to one file ` +
      "usually mean guessing: read the whole file again, work out the complete change, and " +
      "make it in one edit (or rewrite the file with Write).",
    role: "user",
    prefix: "[repeated-patch] ",
  };
}
