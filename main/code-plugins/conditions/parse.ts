/**
 * Condition expressions: `term [and term]…`, each term optionally prefixed by `not`. Parsed once
 * at load so a typo is a load error, never a hook that silently never fires.
 */
import {
  closest,
  comparisonByName,
  DECIMAL_METRICS,
  FLAG_TERMS,
  MODEL_CAPABILITIES,
  TERM_NAMES,
  termUsage,
  type CompareOp,
  type FlagTerm,
  type Metric,
  type ModelCapability,
} from "./vocabulary.ts";

export type ConditionTerm =
  | { kind: "flag"; flag: FlagTerm }
  | { kind: "compare"; metric: Metric; op: CompareOp; value: number }
  | { kind: "model_has"; capability: ModelCapability }
  | { kind: "model_is"; name: string }
  | { kind: "exists"; path: string }
  | { kind: "bash"; command: string };

export interface ConditionLiteral {
  negated: boolean;
  term: ConditionTerm;
  /** The literal as written (including `not`), for messages. */
  text: string;
}

/** A parsed condition: true when every literal is true. */
export interface Condition {
  source: string;
  all: ConditionLiteral[];
}

interface Word {
  text: string;
  start: number;
  end: number;
}

/**
 * Splits on whitespace outside quotes, keeping positions so a term's original text (a bash
 * command's spacing and quoting) survives intact.
 */
function words(source: string): Word[] {
  const out: Word[] = [];
  let i = 0;
  while (i < source.length) {
    while (i < source.length && /\s/.test(source[i])) i++;
    if (i >= source.length) break;
    const start = i;
    let quote = "";
    while (i < source.length && (quote !== "" || !/\s/.test(source[i]))) {
      const c = source[i];
      if (quote !== "") {
        if (c === quote) quote = "";
      } else if (c === "'" || c === '"') {
        quote = c;
      }
      i++;
    }
    out.push({ text: source.slice(start, i), start, end: i });
  }
  return out;
}

const FLAGS: ReadonlySet<string> = new Set(FLAG_TERMS);

function parseNumber(name: string, metric: Metric, raw: string): number {
  if (raw === "") throw new Error(`${name} needs a number, e.g. ${name}:10`);
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new Error(`${name} needs a number, got "${raw}"`);
  if (raw.includes(".") && !DECIMAL_METRICS.has(metric)) {
    throw new Error(`${name} needs a whole number, got "${raw}"`);
  }
  return Number(raw);
}

function unquote(raw: string): string {
  const q = raw[0];
  return raw.length >= 2 && (q === '"' || q === "'") && raw.endsWith(q) ? raw.slice(1, -1) : raw;
}

function unknownTerm(text: string, name: string): Error {
  const guess = closest(name, TERM_NAMES);
  const hint = guess
    ? `did you mean ${guess}?`
    : `known: ${[...FLAG_TERMS, "context_above:N", "history_gt:N", "…", "model_has:X", "model_is:NAME", "exists:PATH", "bash:CMD"].join(", ")}`;
  return new Error(`unknown condition "${text}" (${hint})`);
}

/** Parses one term (no `not`, no `and`). */
function parseTerm(text: string): ConditionTerm {
  const colon = text.indexOf(":");
  const name = colon === -1 ? text : text.slice(0, colon);
  const arg = colon === -1 ? undefined : text.slice(colon + 1);

  if (/\s/.test(name)) {
    throw new Error(`"${text}" is more than one condition: join conditions with "and"`);
  }
  if (FLAGS.has(name)) {
    if (arg !== undefined) throw new Error(`${name} takes no value, got "${text}"`);
    return { kind: "flag", flag: name as FlagTerm };
  }
  const comparison = comparisonByName(name);
  if (comparison) {
    const value = parseNumber(name, comparison.metric, (arg ?? "").trim());
    return { kind: "compare", ...comparison, value };
  }
  const needs = (what: string): Error =>
    new Error(`${name} needs ${what}, e.g. ${termUsage(name)}`);
  switch (name) {
    case "model_has": {
      const cap = (arg ?? "").trim();
      if (cap === "") throw needs("a capability");
      if (!(MODEL_CAPABILITIES as readonly string[]).includes(cap)) {
        const guess = closest(cap, MODEL_CAPABILITIES);
        const hint = guess ? `did you mean ${guess}?` : `one of ${MODEL_CAPABILITIES.join(", ")}`;
        throw new Error(`model_has: unknown capability "${cap}" (${hint})`);
      }
      return { kind: "model_has", capability: cap as ModelCapability };
    }
    case "model_is": {
      const model = unquote((arg ?? "").trim());
      if (model === "") throw needs("a model name");
      return { kind: "model_is", name: model };
    }
    case "exists": {
      const p = unquote((arg ?? "").trim());
      if (p === "") throw needs("a path");
      return { kind: "exists", path: p };
    }
    case "bash": {
      // The command is kept verbatim: quotes and colons belong to the shell.
      const command = (arg ?? "").trim();
      if (command === "") throw needs("a command");
      return { kind: "bash", command };
    }
    default:
      throw unknownTerm(text, name);
  }
}

/**
 * Parses a condition expression. Throws an Error whose message names the offending term, e.g.
 * `unknown condition "contxt_above:70" (did you mean context_above?)`.
 */
export function parseCondition(source: string): Condition {
  const all: ConditionLiteral[] = [];
  const ws = words(source);
  if (ws.length === 0) throw new Error("empty condition: write a term such as auto or turns_gt:5");

  // Group words into terms separated by a bare `and` (outside quotes).
  let group: Word[] = [];
  const flush = (): void => {
    if (group.length === 0) throw new Error(`"and" needs a condition on both sides in "${source}"`);
    let negated = false;
    let k = 0;
    while (k < group.length && group[k].text === "not") {
      negated = !negated;
      k++;
    }
    const text = source.slice(group[0].start, group[group.length - 1].end);
    if (k === group.length) throw new Error(`"not" needs a condition after it in "${text}"`);
    const body = source.slice(group[k].start, group[group.length - 1].end);
    all.push({ negated, term: parseTerm(body), text });
    group = [];
  };
  for (const w of ws) {
    if (w.text === "and") flush();
    else group.push(w);
  }
  flush();
  return { source, all };
}

/** Whether the condition needs the file system or a shell (anything beyond the Context). */
export function isPure(condition: Condition): boolean {
  return condition.all.every((l) => l.term.kind !== "exists" && l.term.kind !== "bash");
}
