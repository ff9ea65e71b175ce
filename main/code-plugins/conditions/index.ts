/** Conditions (seed 000 "Conditions"): parse at load, evaluate before every hook call. */
import type { Context } from "../../../plugins/sdk/index.ts";
import { evaluateCondition, type ConditionEnv } from "./evaluate.ts";
import { parseCondition, type Condition } from "./parse.ts";

export { parseCondition, isPure } from "./parse.ts";
export type { Condition, ConditionLiteral, ConditionTerm } from "./parse.ts";
export { evaluateCondition, metricValue } from "./evaluate.ts";
export type { ConditionEnv } from "./evaluate.ts";
export { runBashCondition, BASH_CONDITION_TIMEOUT_MS } from "./bash.ts";
export { TERM_NAMES, MODEL_CAPABILITIES, termUsage } from "./vocabulary.ts";

/** A ready-to-call check, the shape the plugin runtime asks for (`{ text, test(ctx) }`). */
export interface ConditionCheck {
  text: string;
  test(ctx: Context): Promise<boolean>;
}

/** Binds a condition (parsed, or text to parse now) to its environment. */
export function conditionCheck(condition: Condition | string, env: ConditionEnv): ConditionCheck {
  const parsed = typeof condition === "string" ? parseCondition(condition) : condition;
  return { text: parsed.source, test: (ctx) => evaluateCondition(parsed, ctx, env) };
}
