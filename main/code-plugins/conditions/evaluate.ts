/** Evaluates a parsed condition against the SDK Context the hook is about to receive. */
import { access } from "node:fs/promises";
import path from "node:path";
import type { Context } from "../../../plugins/sdk/index.ts";
import { runBashCondition } from "./bash.ts";
import type { Condition, ConditionLiteral, ConditionTerm } from "./parse.ts";
import { MODEL_METRICS, type FlagTerm, type Metric } from "./vocabulary.ts";

export interface ConditionEnv {
  /** exists: and bash: resolve against it. */
  workdir: string;
  /** Runs a bash: command; true when it exits 0. Defaults to bash -c in workdir, 120 s limit. */
  runBash?(command: string): Promise<boolean>;
}

function flag(ctx: Context, name: FlagTerm): boolean {
  const { pending, inProgress, total } = ctx.todo;
  switch (name) {
    case "todo_empty":
      return total === 0;
    case "todo_done":
      return total > 0 && pending === 0 && inProgress === 0;
    case "todo_pending":
      return pending + inProgress > 0;
    case "auto":
      return ctx.auto;
  }
}

/** The Context figure a comparison reads. */
export function metricValue(ctx: Context, metric: Metric): number {
  switch (metric) {
    case "context":
      return ctx.tokens.percent;
    case "history":
      return ctx.messageCount;
    case "tool_errors":
      return ctx.stats.tools.errors;
    case "tool_calls":
      return ctx.stats.tools.calls;
    case "turns":
      return ctx.stats.turns;
    case "compactions":
      return ctx.stats.compactions;
    case "iteration":
      return ctx.iteration;
    case "tokens_total":
      return ctx.stats.tokens.in + ctx.stats.tokens.out;
    case "model_context":
      return ctx.modelInfo.contextLength;
    case "model_params":
      return ctx.modelInfo.parameterCount / 1e9;
  }
}

/** Terms answerable from the Context alone; undefined for exists:/bash:. */
function syncTerm(ctx: Context, term: ConditionTerm): boolean | undefined {
  switch (term.kind) {
    case "flag":
      return flag(ctx, term.flag);
    case "compare": {
      const v = metricValue(ctx, term.metric);
      // An unresolved model reports zeros; model_params_lt:10 must not match before resolution.
      if (MODEL_METRICS.has(term.metric) && v === 0) return false;
      return term.op === "gt" ? v > term.value : v < term.value;
    }
    case "model_has":
      return ctx.modelInfo.capabilities.some((c) => c.toLowerCase() === term.capability);
    case "model_is":
      return ctx.modelInfo.name.toLowerCase() === term.name.toLowerCase();
    default:
      return undefined;
  }
}

async function asyncTerm(term: ConditionTerm, env: ConditionEnv): Promise<boolean> {
  if (term.kind === "exists") {
    try {
      await access(path.resolve(env.workdir, term.path));
      return true;
    } catch {
      return false;
    }
  }
  if (term.kind === "bash") {
    return (env.runBash ?? ((cmd) => runBashCondition(cmd, env.workdir)))(term.command);
  }
  throw new Error(`unexpected condition term ${term.kind}`);
}

/**
 * True when every literal holds. Context-only literals are checked first so a false one spares
 * the file system and, above all, the shell; the slow ones then run in written order.
 */
export async function evaluateCondition(
  condition: Condition,
  ctx: Context,
  env: ConditionEnv,
): Promise<boolean> {
  const slow: ConditionLiteral[] = [];
  for (const lit of condition.all) {
    const v = syncTerm(ctx, lit.term);
    if (v === undefined) slow.push(lit);
    else if (v === lit.negated) return false;
  }
  for (const lit of slow) {
    if ((await asyncTerm(lit.term, env)) === lit.negated) return false;
  }
  return true;
}
