/**
 * A command's or skill's body made into the prompt, as Claude Code does before sending:
 * arguments, `${VAR}` paths, `` !`cmd` `` output (through the caller's shell, which asks the
 * approval policy) and `@file` contents (inside the workspace only).
 */
import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { Problem } from "../../host/problem.ts";

export interface ExpandContext {
  workdir: string;
  /** Runs a command line through the approval policy; resolves to its output, throws if refused. */
  shell(command: string): Promise<string>;
  /** `${NAME}` substitutions: CLAUDE_PLUGIN_ROOT, CLAUDE_PROJECT_DIR, CLAUDE_SKILL_DIR… */
  vars?: Record<string, string>;
  /** Names from a skill's `arguments:`, bound in order to the words of the arguments. */
  argNames?: readonly string[];
}

/** Shell-style words: quotes group, backslash escapes. */
export function splitArgs(text: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|((?:[^\s"'\\]|\\.)+)/g;
  for (const m of text.matchAll(re)) {
    words.push(m[1]?.replace(/\\(.)/g, "$1") ?? m[2] ?? m[3].replace(/\\(.)/g, "$1"));
  }
  return words;
}

/**
 * `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N` (0-based, as Claude Code) and `$name` from `arguments:`.
 * A position past the last argument stays as written, as Claude Code leaves it.
 */
export function substituteArguments(
  body: string,
  args: string,
  argNames: readonly string[] = [],
): string {
  const words = splitArgs(args);
  let used = false;
  const names = new Map(argNames.map((n, i) => [n, i]));
  let out = body.replace(
    /\$ARGUMENTS(?:\[(\d+)\])?|\$(\d)(?!\d)|\$([A-Za-z_][\w-]*)/g,
    (m, idx, n, name) => {
      if (idx !== undefined || n !== undefined) {
        used = true;
        return words[Number(idx ?? n)] ?? m;
      }
      if (m === "$ARGUMENTS") {
        used = true;
        return args;
      }
      const at = names.get(name as string);
      if (at === undefined) return m;
      used = true;
      return words[at] ?? "";
    },
  );
  if (!used && args.trim() !== "") out = `${out}\n\nARGUMENTS: ${args}`;
  return out;
}

/**
 * Bodies written for Claude Code before `$N` became 0-based use `$1` for the first argument; with
 * an `argument-hint` naming fewer arguments than the highest `$N` reaches, and no `$0`, say so.
 */
export function positionalHintProblem(
  file: string,
  body: string,
  hint: string | undefined,
): Problem | null {
  if (!hint) return null;
  const named = hint.match(/<[^>]*>|\[[^\]]*\]/g)?.length ?? 0;
  const used = [...body.matchAll(/\$ARGUMENTS\[(\d+)\]|\$(\d)(?!\d)/g)].map((m) =>
    Number(m[1] ?? m[2]),
  );
  if (named === 0 || used.length === 0 || used.includes(0)) return null;
  const top = Math.max(...used);
  if (top < named) return null;
  return {
    source: "markdown",
    file,
    title: `$${top} is argument ${top + 1}, but argument-hint "${hint}" names ${named}: $0 is the first (0-based, as in Claude Code)`,
  };
}

function substituteVars(body: string, vars: Record<string, string>): string {
  return body.replace(/\$\{([A-Z_][A-Z0-9_]*)\}/g, (m, name: string) => vars[name] ?? m);
}

const SHELL_LINE = /^```!\s*\n([\s\S]*?)\n```[ \t]*$|!`([^`\n]+)`/gm;

/** A fence line as CommonMark reads one: up to three spaces, then three or more ` or ~. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Where the body's ordinary fenced code blocks are ([start, end) offsets): `` !`cmd` `` written
 * inside one is an example shown to the reader, not a command to run (plugin docs are full of
 * them). A block opened with ```! is the shell block itself and is not one of these.
 */
function exampleBlocks(body: string): Array<[number, number]> {
  const blocks: Array<[number, number]> = [];
  let open: { marker: string; start: number; shell: boolean } | undefined;
  let offset = 0;
  for (const line of body.split("\n")) {
    const fence = FENCE.exec(line);
    if (open) {
      const closes =
        fence !== null &&
        fence[1][0] === open.marker[0] &&
        fence[1].length >= open.marker.length &&
        fence[2].trim() === "";
      if (closes) {
        if (!open.shell) blocks.push([open.start, offset + line.length]);
        open = undefined;
      }
    } else if (fence && !(fence[1][0] === "`" && fence[2].includes("`"))) {
      open = { marker: fence[1], start: offset, shell: fence[2].trimStart().startsWith("!") };
    }
    offset += line.length + 1;
  }
  // An unclosed fence runs to the end of the body, as CommonMark reads it.
  if (open && !open.shell) blocks.push([open.start, body.length]);
  return blocks;
}

/** The body's shell lines, in order, each with where it stands (examples in code blocks left out). */
function shellMatches(body: string): RegExpExecArray[] {
  const blocks = exampleBlocks(body);
  const inExample = (at: number) => blocks.some(([start, end]) => at >= start && at < end);
  return [...body.matchAll(SHELL_LINE)].filter((m) => !inExample(m.index));
}

/** The shell lines a command or skill body runs when used (what a consent question lists). */
export function shellLines(body: string): string[] {
  return shellMatches(body).map((m) => (m[1] ?? m[2]).trim());
}

/**
 * `` !`cmd` `` inline and fenced blocks opened with ```! run in order, each replaced by its output;
 * those inside an ordinary code block stay as written.
 */
async function runShellLines(body: string, shell: ExpandContext["shell"]): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  for (const m of shellMatches(body)) {
    parts.push(body.slice(last, m.index));
    parts.push((await shell((m[1] ?? m[2]).trim())).trimEnd());
    last = m.index + m[0].length;
  }
  parts.push(body.slice(last));
  return parts.join("");
}

/** Whether `target` is `root` or inside it (both real paths). */
function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** `@path` (at a line start or after a space) attaches the file; paths leaving the workspace are refused. */
async function attachFiles(body: string, workdir: string): Promise<string> {
  const root = await realpath(workdir);
  const attached: string[] = [];
  const seen = new Set<string>();
  for (const m of body.matchAll(/(?:^|(?<=\s))@([^\s`'"]+)/gm)) {
    const ref = m[1].replace(/[.,;:!?)]+$/, "");
    if (seen.has(ref)) continue;
    seen.add(ref);
    const abs = path.resolve(root, ref);
    let real: string;
    try {
      real = await realpath(abs);
    } catch {
      continue; // not a file: an @mention, an email, a decorator; left as written
    }
    if (!inside(root, real))
      throw new Error(
        `@${ref}: outside the workspace (${root}); only files inside it can be attached`,
      );
    if (!(await stat(real)).isFile()) continue;
    attached.push(`<file path="${ref}">\n${await readFile(real, "utf8")}\n</file>`);
  }
  return attached.length === 0 ? body : `${body}\n\n${attached.join("\n\n")}`;
}

export async function expandBody(body: string, args: string, ctx: ExpandContext): Promise<string> {
  let out = substituteVars(body, { CLAUDE_PROJECT_DIR: ctx.workdir, ...ctx.vars });
  out = substituteArguments(out, args, ctx.argNames);
  out = await runShellLines(out, ctx.shell);
  return attachFiles(out, ctx.workdir);
}
