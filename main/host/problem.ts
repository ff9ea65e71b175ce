/**
 * A problem for the person using Islet: what went wrong, where (a file and position when known),
 * why, and what to do. Bridge errors, engine warnings and plugin load problems travel as these
 * from where they arise to the edge: the bridge sends them whole, the editor marks them, and the
 * CLI prints each as one line. formatProblem is the one place a problem becomes a line; nothing
 * reads a line back into a problem.
 *
 * Plain zod and no Node imports: the bridge contract (bundled into the renderer) uses the schema.
 */
import { z } from "zod";
import { RemedySchema } from "../core/remedy.ts";

export const Problem = z.strictObject({
  /** Who reports it: a call ("plugins/reload"), "plugins", "config", a plugin's name… */
  source: z.string(),
  file: z.string().optional(),
  /** 1-based, with file. */
  line: z.number().int().positive().optional(),
  /** 1-based, with line. */
  column: z.number().int().positive().optional(),
  /** What is wrong, in one line. */
  title: z.string(),
  /** Why, when that is not already in the title. */
  cause: z.string().optional(),
  /** What to do about it. */
  suggestion: z.string().optional(),
  /** What the app offers beside it (buttons) in place of the suggestion's CLI words. */
  remedy: RemedySchema.optional(),
});
export type Problem = z.infer<typeof Problem>;

/**
 * An error that carries its problem whole (a handler's refusal with a suggestion, a file a loader
 * could not read). It reads as any Error does ("Error: <the problem's line>"), so code that throws
 * one where it threw a plain Error changes nothing a person sees.
 */
export class ProblemError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem, options?: ErrorOptions) {
    super(formatProblem(problem), options);
    this.problem = problem;
  }
}

/** Where problems go as they arise: the CLI prints each one's line, the bridge sends it whole. */
export type ProblemSink = (problem: Problem) => void;

/** `file:line:column`, as far as it is known; else the source. */
export function problemLocation(p: Problem): string {
  if (p.file === undefined) return p.source;
  if (p.line === undefined) return p.file;
  return p.column === undefined ? `${p.file}:${p.line}` : `${p.file}:${p.line}:${p.column}`;
}

/** Whether the title names its own location first (`/s/x.jsonl is not a file`). */
function titleLeads(p: Problem, location: string): boolean {
  return p.title.startsWith(`${location} `);
}

/** The line after its location: `title (cause); suggestion`. */
export function problemText(p: Problem): string {
  const location = problemLocation(p);
  let text = titleLeads(p, location) ? p.title.slice(location.length + 1) : p.title;
  if (p.cause) text += ` (${p.cause})`;
  if (p.suggestion) text += `; ${p.suggestion}`;
  return text.replace(/\s*\n\s*/g, " ");
}

/**
 * The one line a problem reads as, wherever it is shown (the CLI prints it, the app shows it):
 * `where: title (cause); suggestion`. A title that starts with its location reads as a sentence
 * about it (`/s/x.jsonl is not a file: skipped`), so the location is not repeated before it.
 */
export function formatProblem(p: Problem): string {
  const location = problemLocation(p);
  const line = `${location}${titleLeads(p, location) ? " " : ": "}${problemText(p)}`;
  return line.replace(/\s*\n\s*/g, " ");
}
