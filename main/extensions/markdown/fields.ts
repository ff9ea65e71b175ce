/**
 * Lenient reading of a Markdown file's frontmatter, as Claude Code reads it: a field it does not
 * know is a warning (the file still loads), a field with a bad value is one line naming the file
 * and the field (the file is skipped, its neighbours still load).
 */
import { z } from "zod";
import { parseFrontmatter } from "../../config/frontmatter.ts";

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

export interface MarkdownFile<T> {
  data: T;
  body: string;
  /** One line each: unknown fields, ignored. */
  warnings: string[];
}

/** Parses `text` (the content of `file`) against `shape`; throws one line naming file and field. */
export function readMarkdownFile<Shape extends z.ZodRawShape>(
  file: string,
  text: string,
  shape: Shape,
): MarkdownFile<z.output<z.ZodObject<Shape>>> {
  let doc;
  try {
    doc = parseFrontmatter(text);
  } catch (err) {
    const message = (err as Error).message.split("\n")[0];
    throw new Error(`${file}: frontmatter: ${message}`, { cause: err });
  }
  const parsed = z.object(shape).safeParse(doc.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length > 0 ? issue.path.join(".") : "frontmatter";
    throw new Error(`${file}: ${field}: ${issue.message}`);
  }
  const warnings = Object.keys(doc.data)
    .filter((k) => !(k in shape))
    .map((k) => `${file}: ${k}: unknown field, ignored`);
  return { data: parsed.data, body: doc.body, warnings };
}

/** What every loader returns: what loaded, and one line per problem. */
export interface Loaded<T> {
  items: T[];
  /** Broken files (skipped). */
  errors: string[];
  /** Unknown fields and the like (the file loaded). */
  warnings: string[];
}

/** Tool name patterns from Claude's permission rules: "Bash(git add:*)" allows the Bash tool. */
export function toolPatterns(rules: readonly string[]): string[] {
  return [...new Set(rules.map((r) => r.replace(/\(.*\)$/s, "").trim()).filter(Boolean))];
}
