/**
 * Runner config templates (`command_exists`, `command_install`, `command_run`): argument vectors
 * whose entries hold placeholders, substituted entry by entry and never through a shell (seed
 * 004, SPEC §8). Placeholders:
 * - `{plugin.PATH}`: the manifest's value at JSONPath `$.PATH` (RFC 9535, jsonpath-rfc9535);
 * - `{working_dir}`, `{plugin_dir}`, `{mount_readonly}` ("true" unless the mount says write),
 *   `{network_none}` ("none" when the manifest says `network: false`, else absent);
 * - `{command}` and `{args}`: the command's and the tool call's argv, each value its own entry;
 *   `{run_name}`: a name unique to the call (a container's `--name`, for `command_stop`). These
 *   three must stand alone in an entry.
 * An entry that is itself a list is an optional group: dropped as a whole when one of its
 * placeholders has no value (no `mount` in the manifest: no `--mount` option). Elsewhere a value
 * that is missing, several values, a map or a list is a load error naming file and field, and so
 * is a value that would put a `-` at the start of an entry (it would be read as an option).
 */
import { query, type JsonValue } from "jsonpath-rfc9535";
import { commandArgv } from "./command-line.ts";

export type TemplateEntry = string | readonly string[];
export type Template = readonly TemplateEntry[];

/** After binding a plugin's values: text, or where the command's / the call's argv go. */
type Spread = "command" | "args" | "run_name";
export type BoundEntry = string | { spread: Spread };

/** What the spread placeholders stand for in one call. */
export interface SpreadValues {
  command: readonly string[];
  args: readonly string[];
  run_name: string;
}

const SINGLE = new Set(["working_dir", "plugin_dir", "mount_readonly", "network_none"]);
const SPREAD = new Set<string>(["command", "args", "run_name"] satisfies Spread[]);
/** `{name}` or `{plugin.path}`; anything else in braces (`{{.Id}}`) is literal text. */
const PLACEHOLDER = /\{(plugin[.[][^{}]*|[a-z_]+)\}/g;

/** Parses a config's template (a string split by shell-quote, or a list); an error is one line. */
export function parseTemplate(value: unknown): { template: Template } | { error: string } {
  let entries: TemplateEntry[];
  if (typeof value === "string") {
    const split = commandArgv(value);
    if (!split.ok) return { error: split.error };
    entries = split.argv;
  } else if (Array.isArray(value) && value.length > 0) {
    entries = [];
    for (const [i, entry] of value.entries()) {
      if (typeof entry === "string") entries.push(entry);
      else if (Array.isArray(entry) && entry.every((e) => typeof e === "string"))
        entries.push(entry as string[]);
      else return { error: `[${i}]: expected text, or a list of text (an optional group)` };
    }
  } else {
    return { error: "expected a command line or a non-empty list" };
  }
  for (const [i, entry] of entries.entries()) {
    for (const text of typeof entry === "string" ? [entry] : entry) {
      const problem = checkEntry(text);
      if (problem) return { error: `[${i}]: ${problem}` };
    }
  }
  return { template: entries };
}

function checkEntry(text: string): string | undefined {
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = m[1];
    if (name.startsWith("plugin")) {
      const path = jsonPath(name);
      try {
        query({}, path);
      } catch (err) {
        return `{${name}}: malformed JSON path ${path} (${firstLine(err)})`;
      }
    } else if (SPREAD.has(name)) {
      if (text !== m[0]) return `{${name}} must be an entry of its own`;
    } else if (!SINGLE.has(name)) {
      return `unknown placeholder {${name}} (known: {plugin.FIELD}, ${[...SINGLE, ...SPREAD].map((n) => `{${n}}`).join(", ")})`;
    }
  }
  return undefined;
}

export interface BindContext {
  manifest: JsonValue;
  /** Values of the single placeholders; undefined = absent. */
  values: Readonly<Record<string, string | undefined>>;
}

/**
 * Substitutes everything but `{command}` and `{args}`. Errors name the placeholder; the caller
 * adds file and field.
 */
export function bindTemplate(
  template: Template,
  ctx: BindContext,
): { bound: BoundEntry[] } | { error: string } {
  const bound: BoundEntry[] = [];
  for (const [i, entry] of template.entries()) {
    const group = typeof entry === "string" ? [entry] : entry;
    const out: BoundEntry[] = [];
    let absent = false;
    for (const text of group) {
      const r = bindEntry(text, ctx);
      if ("error" in r) return { error: `[${i}]: ${r.error}` };
      if ("absent" in r) {
        if (typeof entry === "string") return { error: `[${i}]: ${r.absent}` };
        absent = true;
        break;
      }
      out.push(r.entry);
    }
    if (!absent) bound.push(...out);
  }
  return { bound };
}

function bindEntry(
  text: string,
  ctx: BindContext,
): { entry: BoundEntry } | { absent: string } | { error: string } {
  const whole = /^\{([a-z_]+)\}$/.exec(text);
  if (whole && SPREAD.has(whole[1])) return { entry: { spread: whole[1] as Spread } };
  let out = "";
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const value = placeholderValue(m[1], ctx);
    if ("absent" in value || "error" in value) return value;
    // A value must not turn an entry into an option ("--privileged"), alone or after empty ones.
    const before = out + text.slice(last, m.index);
    if (before === "" && value.text.startsWith("-"))
      return {
        error: `{${m[1]}} is ${JSON.stringify(value.text)}, which starts with "-" and would be read as an option`,
      };
    if (value.text.includes("\0")) return { error: `{${m[1]}} contains a NUL character` };
    out = before + value.text;
    last = m.index + m[0].length;
  }
  return { entry: out + text.slice(last) };
}

function placeholderValue(
  name: string,
  ctx: BindContext,
): { text: string } | { absent: string } | { error: string } {
  if (!name.startsWith("plugin")) {
    const text = ctx.values[name];
    return text === undefined ? { absent: `{${name}} has no value` } : { text };
  }
  const path = jsonPath(name);
  let found: JsonValue[];
  try {
    found = query(ctx.manifest, path);
  } catch (err) {
    return { error: `{${name}}: malformed JSON path ${path} (${firstLine(err)})` };
  }
  if (found.length === 0) return { absent: `{${name}} matches nothing in the manifest` };
  if (found.length > 1)
    return { error: `{${name}} matches ${found.length} values; a placeholder takes one` };
  const [value] = found;
  if (typeof value === "string") return { text: value };
  if (typeof value === "number" || typeof value === "boolean") return { text: String(value) };
  return { error: `{${name}} is ${value === null ? "null" : "a map or a list"}, expected text` };
}

/** The argument vector of one call. */
export function expandBound(bound: readonly BoundEntry[], values: SpreadValues): string[] {
  return bound.flatMap((e) => {
    if (typeof e === "string") return [e];
    const value = values[e.spread];
    return typeof value === "string" ? [value] : [...value];
  });
}

/** `plugin.mount.path` → `$.mount.path`. */
function jsonPath(name: string): string {
  return `$${name.slice("plugin".length)}`;
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}
