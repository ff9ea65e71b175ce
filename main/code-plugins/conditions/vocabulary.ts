/**
 * The condition vocabulary of the plugin guide (seed 000, "Conditions"), shared by plugin.yaml
 * `condition:` and `/assert`. One table so the parser, the evaluator, suggestions and editor
 * completion never disagree about what exists.
 */

/** Terms that take no value. */
export const FLAG_TERMS = ["todo_empty", "todo_done", "todo_pending", "auto"] as const;
export type FlagTerm = (typeof FLAG_TERMS)[number];

/** Counters compared with `_gt`/`_lt` (context uses `_above`/`_below`). */
export const METRICS = [
  "context",
  "history",
  "tool_errors",
  "tool_calls",
  "turns",
  "compactions",
  "iteration",
  "tokens_total",
  "model_context",
  "model_params",
] as const;
export type Metric = (typeof METRICS)[number];

/** Percent and billions of parameters are naturally fractional; the rest are counts. */
export const DECIMAL_METRICS: ReadonlySet<Metric> = new Set<Metric>(["context", "model_params"]);

/** Model facts that are zero until the model is resolved, where a comparison must stay false. */
export const MODEL_METRICS: ReadonlySet<Metric> = new Set<Metric>([
  "model_context",
  "model_params",
]);

export const MODEL_CAPABILITIES = [
  "vision",
  "tools",
  "thinking",
  "thinking_levels",
  "embedding",
  "reranking",
  "context_override",
] as const;
export type ModelCapability = (typeof MODEL_CAPABILITIES)[number];

export type CompareOp = "gt" | "lt";

/** The spelled term for a metric and direction, e.g. ("context", "gt") → "context_above". */
export function comparisonName(metric: Metric, op: CompareOp): string {
  if (metric === "context") return op === "gt" ? "context_above" : "context_below";
  return `${metric}_${op}`;
}

const COMPARISONS = new Map<string, { metric: Metric; op: CompareOp }>();
for (const metric of METRICS) {
  for (const op of ["gt", "lt"] as const)
    COMPARISONS.set(comparisonName(metric, op), { metric, op });
}

/** Looks up a comparison term by its spelled name. */
export function comparisonByName(name: string): { metric: Metric; op: CompareOp } | undefined {
  return COMPARISONS.get(name);
}

/** Terms that take a free-form value after the colon. */
export const VALUE_TERMS = ["model_has", "model_is", "exists", "bash"] as const;
export type ValueTerm = (typeof VALUE_TERMS)[number];

/** Every term name, for suggestions and completion. */
export const TERM_NAMES: readonly string[] = [...FLAG_TERMS, ...COMPARISONS.keys(), ...VALUE_TERMS];

/** Usage hint shown with errors and in completion, e.g. "context_above:N". */
export function termUsage(name: string): string {
  if ((FLAG_TERMS as readonly string[]).includes(name)) return name;
  if (COMPARISONS.has(name)) return `${name}:N`;
  switch (name) {
    case "model_has":
      return `model_has:${MODEL_CAPABILITIES.join("|")}`;
    case "model_is":
      return "model_is:NAME";
    case "exists":
      return "exists:PATH";
    case "bash":
      return "bash:CMD";
    default:
      return name;
  }
}

/** Levenshtein distance, for "did you mean" on misspelled terms. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    prev = cur;
  }
  return prev[b.length];
}

/** The closest known name within a typo's reach, or undefined. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  // A third of the word (at least 2 edits) catches typos without suggesting unrelated names.
  if (bestDistance <= Math.max(2, Math.floor(word.length / 3))) return best;
  // A known name plus a suffix ("unsafe_mode") is a near miss, however long the suffix.
  return candidates.find((c) => c.length >= 3 && word.startsWith(c));
}
