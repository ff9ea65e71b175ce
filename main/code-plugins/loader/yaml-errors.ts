/**
 * One-line messages for YAML config files (plugin.yaml, features/plugins.yaml): the file, the
 * field, what was expected and what was found. Shared so every plugin config error reads alike.
 */
import { parseDocument } from "yaml";
import type { z } from "zod";
import type { Problem } from "../../host/problem.ts";
import { cachedParse } from "../../config/frontmatter-cache.ts";
import { closest } from "../conditions/vocabulary.ts";

/** A problem with a plugin's file (plugin.yaml, features/plugins.yaml…) as the loader reports it. */
export function problemIn(file: string, title: string, cause?: string): Problem {
  return { source: "plugins", file, title, ...(cause !== undefined ? { cause } : {}) };
}

/** How a found value is named in a message: strings quoted, containers by kind. */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return "nothing";
  if (typeof value === "string") {
    const s = JSON.stringify(value);
    return s.length > 60 ? `${s.slice(0, 57)}…"` : s;
  }
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  return String(value);
}

const TYPE_NAMES: Record<string, string> = {
  string: "text",
  boolean: "true or false",
  number: "a number",
  array: "a list",
  object: "a map",
  record: "a map",
};

/** `a.b[0].c` from a zod issue path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out === "" ? String(p) : `.${String(p)}`;
  }
  return out;
}

/** A zod issue as `field: expected …, got …` (without the file). */
export function describeIssue(issue: z.core.$ZodIssue, prefix = ""): string {
  const field = fieldPath([...(prefix ? [prefix] : []), ...issue.path]);
  let what: string;
  if (issue.code === "invalid_type" && issue.message.startsWith("Invalid input")) {
    // zod's stock wording; our own schemas set full messages and skip this branch.
    const type = TYPE_NAMES[issue.expected] ?? issue.expected;
    what =
      issue.input === undefined
        ? `missing, expected ${type}`
        : `expected ${type}, got ${describeValue(issue.input)}`;
  } else if (issue.code === "unrecognized_keys") {
    what = `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  } else {
    what = issue.message;
  }
  return field === "" ? what : `${field}: ${what}`;
}

export type YamlRead = { ok: true; data: unknown } | { ok: false; error: Problem };

/** A YAML syntax error where it is (thrown past the parse cache, which keeps only parses). */
class YamlSyntax extends Error {
  readonly at: { line?: number; column?: number };
  constructor(message: string, at: { line?: number; column?: number }) {
    super(message);
    this.at = at;
  }
}

function parseYaml(text: string): unknown {
  const doc = parseDocument(text);
  const err = doc.errors[0];
  if (err) {
    const pos = err.linePos?.[0];
    // Pretty messages end their first line with "at line L, column C:"; the position leads instead.
    const firstLine = err.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    throw new YamlSyntax(firstLine, pos ? { line: pos.line, column: pos.col } : {});
  }
  return doc.toJS();
}

/**
 * Parses YAML text; a syntax error is a problem at its file, line and column: `invalid YAML: …`.
 * A text parsed before (a plugin.yaml at an earlier start) comes from the parse cache.
 */
export function readYaml(text: string, file: string, source = "plugins"): YamlRead {
  try {
    return { ok: true, data: cachedParse(text, parseYaml) };
  } catch (err) {
    if (!(err instanceof YamlSyntax)) throw err;
    return { ok: false, error: { source, file, ...err.at, title: `invalid YAML: ${err.message}` } };
  }
}

/** Drops keys whose value is null: an empty `config:` means "not set", as a blank line would. */
export function withoutNulls(map: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(map)) if (v !== null) out[k] = v;
  return out;
}

export function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `unknown field "opt-in" (ignored; did you mean opt_in?)` for each key not in `known`, in `file`
 * (`field`: the map's own field, which leads the title).
 */
export function unknownFieldWarnings(
  map: Record<string, unknown>,
  known: readonly string[],
  at: { source: string; file: string; field?: string },
): Problem[] {
  const lead = at.field === undefined ? "" : `${at.field}: `;
  return Object.keys(map)
    .filter((k) => !known.includes(k))
    .map((k) => {
      const guess = closest(k, known);
      const title = `${lead}unknown field "${k}" (ignored${guess ? `; did you mean ${guess}?` : ""})`;
      return { source: at.source, file: at.file, title };
    });
}
