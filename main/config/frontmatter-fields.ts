/**
 * Lenient reading of a Markdown file's frontmatter, as Claude Code reads it: a field it does not
 * know is a warning (the file still loads), a field with a bad value is one line naming the file
 * and the field (the file is skipped, its neighbours still load).
 */
import { z } from "zod";
import { parseFrontmatter } from "./frontmatter.ts";
import { ProblemError, type Problem } from "../host/problem.ts";

/** "Read, Bash(git add:*)", "Read Grep" or a list: separators inside parentheses are kept. */
export const toolList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : splitTopLevel(v)).map((s) => s.trim()).filter(Boolean));

function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    if ((ch === "," || /\s/.test(ch)) && depth === 0) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out;
}

/** YAML turns `description: 1.0` into a number and `hint: [x]` into a list; real files do both. */
export const looseText = z
  .union([z.string(), z.number(), z.boolean(), z.array(z.unknown())])
  .transform((v) => (Array.isArray(v) ? v.map(String).join(" ") : String(v)));

/** `argument-hint: [file]` is a YAML list to a parser, and a hint to its author: keep the brackets. */
export const hintText = z
  .union([z.string(), z.number(), z.array(z.unknown())])
  .transform((v) => (Array.isArray(v) ? v.map((x) => `[${String(x)}]`).join(" ") : String(v)));

/**
 * Real frontmatter is often not YAML (`argument-hint: [pr] [priority]`, an unquoted colon in a
 * description): read such a block as `key: value` lines, as Claude Code does, when every line is
 * one; otherwise the YAML error stands.
 */
function plainLines(block: string): Record<string, unknown> | null {
  const data: Record<string, unknown> = {};
  for (const line of block.split(/\r?\n/)) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const m = /^([A-Za-z_][\w-]*):[ \t]*(.*)$/.exec(line);
    if (!m) return null;
    data[m[1]] = scalar(m[2]);
  }
  return data;
}

function scalar(text: string): unknown {
  const raw = text.trim();
  const quoted = /^(["'])(.*)\1$/s.exec(raw);
  if (quoted) return quoted[2];
  if (raw === "true" || raw === "false") return raw === "true";
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

/**
 * Last resort for a block that is neither YAML nor `key: value` lines (an agent whose description
 * runs on over `user: …` / `<example>` lines): a line opening with a field the file type knows
 * starts that field, any other line continues the field before it.
 */
function knownFieldLines(
  block: string,
  known: ReadonlySet<string>,
): Record<string, unknown> | null {
  const fields: [string, string[]][] = [];
  for (const line of block.split(/\r?\n/)) {
    const m = /^([A-Za-z_][\w-]*):[ \t]*(.*)$/.exec(line);
    if (m && known.has(m[1])) fields.push([m[1], [m[2]]]);
    else if (fields.length > 0) fields.at(-1)![1].push(line);
    else if (line.trim() !== "") return null;
  }
  if (fields.length === 0) return null;
  return Object.fromEntries(fields.map(([k, lines]) => [k, scalar(lines.join("\n"))]));
}

export interface MarkdownFile<T> {
  data: T;
  body: string;
  /** Unknown fields, ignored. */
  warnings: Problem[];
}

/** A problem with a markdown file (a command, skill, agent or output style). */
function inMarkdown(file: string, title: string): Problem {
  return { source: "markdown", file, title };
}

/**
 * The problem behind an error reading `file`: a ProblemError's own (readMarkdownFile throws
 * those), else its message's first line in that file.
 */
export function fileProblem(err: unknown, file: string): Problem {
  if (err instanceof ProblemError) return err.problem;
  return inMarkdown(file, (err instanceof Error ? err.message : String(err)).split("\n")[0]);
}

/**
 * Parses `text` (the content of `file`) against `shape`; throws a ProblemError naming file and
 * field.
 */
/**
 * One object schema per shape: zod compiles a schema on its first parse, and a new z.object for
 * every file compiled it again for each of hundreds of plugin files.
 */
const schemas = new WeakMap<z.ZodRawShape, z.ZodObject>();

function schemaOf<Shape extends z.ZodRawShape>(shape: Shape): z.ZodObject<Shape> {
  let schema = schemas.get(shape);
  if (!schema) {
    schema = z.object(shape);
    schemas.set(shape, schema);
  }
  return schema as z.ZodObject<Shape>;
}

export function readMarkdownFile<Shape extends z.ZodRawShape>(
  file: string,
  text: string,
  shape: Shape,
): MarkdownFile<z.output<z.ZodObject<Shape>>> {
  let doc;
  const lenient: Problem[] = [];
  try {
    doc = parseFrontmatter(text);
  } catch (err) {
    const message = (err as Error).message.split("\n")[0];
    const block = frontmatterBlock(text);
    let data = block && plainLines(block[1]);
    if (block && !data) {
      data = knownFieldLines(block[1], new Set(Object.keys(shape)));
      if (data)
        lenient.push(
          inMarkdown(
            file,
            `frontmatter is not YAML (${message.replace(/:$/, "")}); read field by field`,
          ),
        );
    }
    if (!block || !data)
      throw new ProblemError(inMarkdown(file, `frontmatter: ${message}`), { cause: err });
    doc = { data, body: text.slice(block[0].length) };
  }
  const parsed = schemaOf(shape).safeParse(doc.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length > 0 ? issue.path.join(".") : "frontmatter";
    throw new ProblemError(inMarkdown(file, `${field}: ${issue.message}`));
  }
  const warnings = Object.keys(doc.data)
    .filter((k) => !(k in shape))
    .map((k) => inMarkdown(file, `${k}: unknown field, ignored`));
  warnings.unshift(...lenient);
  return { data: parsed.data, body: doc.body, warnings };
}

/** The `---` block at the top of `text` (group 1: its inside), or null. */
export function frontmatterBlock(text: string): RegExpExecArray | null {
  return /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
}

/** What every loader returns: what loaded, and its problems. */
export interface Loaded<T> {
  items: T[];
  /** Broken files (skipped). */
  errors: Problem[];
  /** Unknown fields and the like (the file loaded). */
  warnings: Problem[];
}

/** Tool name patterns from Claude's permission rules: "Bash(git add:*)" allows the Bash tool. */
export function toolPatterns(rules: readonly string[]): string[] {
  return [...new Set(rules.map((r) => r.replace(/\(.*\)$/s, "").trim()).filter(Boolean))];
}
