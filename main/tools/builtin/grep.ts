/** Grep: search file contents by regular expression (pure JS, no ripgrep needed). */
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool } from "../define.ts";
import { ToolError } from "../types.ts";
import { displayPath, resolveToolPath } from "../workpath.ts";
import { fsError, looksBinary, SKIPPED_DIRS } from "./files.ts";

const DEFAULT_MAX_RESULTS = 200;
/** Larger files are almost always generated data or logs; searching them floods the model. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_LINE_CHARS = 500;

export const grepTool = defineTool({
  name: "Grep",
  description:
    "Search file contents with a JavaScript regular expression. output_mode: files_with_matches " +
    "(default: matching file paths), content (matching lines as path:line:text, with optional " +
    "context lines), count (matches per file). Skips .git, node_modules and binary files.",
  args: {
    pattern: z.string().min(1).describe("Regular expression (JavaScript syntax)"),
    path: z
      .string()
      .min(1)
      .optional()
      .describe("File or directory to search (default: working directory)"),
    glob: z
      .string()
      .min(1)
      .optional()
      .describe("Only files matching this glob, e.g. `*.ts` or `src/**/*.py`"),
    case_insensitive: z.boolean().optional().describe("Ignore case (default false)"),
    output_mode: z.enum(["content", "files_with_matches", "count"]).optional(),
    context: z
      .number()
      .int()
      .min(0)
      .max(20)
      .optional()
      .describe("Lines of context around matches (content mode)"),
    max_results: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Maximum lines/files listed (default ${DEFAULT_MAX_RESULTS})`),
  },
  parallel: true,
  paths: (args, ctx) => ({ read: [resolveToolPath(ctx.workdir, args.path ?? ".")] }),
  async execute(args, ctx) {
    let regex: RegExp;
    try {
      regex = new RegExp(args.pattern, args.case_insensitive ? "i" : "");
    } catch (err) {
      throw new ToolError(
        `Invalid regular expression: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const root = resolveToolPath(ctx.workdir, args.path ?? ".");
    const mode = args.output_mode ?? "files_with_matches";
    const max = args.max_results ?? DEFAULT_MAX_RESULTS;
    const context = mode === "content" ? (args.context ?? 0) : 0;
    const out: string[] = [];
    let listed = 0;
    let capped = false;

    for await (const file of walk(root, ctx.workdir, args.glob, ctx.signal)) {
      const lines = await readTextLines(file);
      if (!lines) continue;
      const hits: number[] = [];
      for (let i = 0; i < lines.length; i++) if (regex.test(lines[i])) hits.push(i);
      if (hits.length === 0) continue;
      const shown = displayPath(ctx.workdir, file);
      if (mode === "files_with_matches") out.push(shown);
      else if (mode === "count") out.push(`${shown}:${hits.length}`);
      else {
        const room = max - listed;
        const block = contentBlock(shown, lines, hits, context, room);
        if (out.length > 0 && context > 0) out.push("--");
        out.push(...block.lines);
        listed += block.matches - 1;
        if (block.cut) capped = true;
      }
      listed++;
      if (listed >= max || capped) {
        capped = true;
        break;
      }
    }
    if (out.length === 0) return `No matches for ${args.pattern}`;
    if (capped)
      out.push(
        `[results capped at ${max}; narrow the pattern, path or glob, or raise max_results]`,
      );
    return out.join("\n");
  },
});

/** A file's matching lines (and context) as `path:n:text` / `path-n-text`, at most `room` matches. */
function contentBlock(
  shown: string,
  lines: string[],
  hits: number[],
  context: number,
  room: number,
): { lines: string[]; matches: number; cut: boolean } {
  const used = hits.slice(0, Math.max(room, 1));
  const hitSet = new Set(used);
  const out: string[] = [];
  let previous = -1;
  for (const hit of used) {
    const from = Math.max(hit - context, previous + 1);
    const to = Math.min(hit + context, lines.length - 1);
    if (previous >= 0 && from > previous + 1) out.push("--");
    for (let i = from; i <= to; i++) {
      const text =
        lines[i].length > MAX_LINE_CHARS
          ? `${lines[i].slice(0, MAX_LINE_CHARS)} [… line cut]`
          : lines[i];
      out.push(`${shown}${hitSet.has(i) ? ":" : "-"}${i + 1}${hitSet.has(i) ? ":" : "-"}${text}`);
    }
    previous = to;
  }
  return { lines: out, matches: used.length, cut: used.length < hits.length };
}

async function readTextLines(file: string): Promise<string[] | null> {
  try {
    const stat = await fs.stat(file);
    if (stat.size > MAX_FILE_BYTES) return null;
    const buffer = await fs.readFile(file);
    if (looksBinary(buffer)) return null;
    const lines = buffer.toString("utf8").split(/\r?\n/);
    if (lines.at(-1) === "") lines.pop(); // a final newline ends the last line, it starts none
    return lines;
  } catch {
    return null; // unreadable (permissions, vanished mid-walk): not a match, not a failure
  }
}

/** Files under `root` in name order, skipping .git/node_modules, filtered by the optional glob. */
async function* walk(
  root: string,
  workdir: string,
  glob: string | undefined,
  signal: AbortSignal,
): AsyncGenerator<string> {
  let stat;
  try {
    stat = await fs.stat(root);
  } catch (err) {
    throw fsError(err, displayPath(workdir, root));
  }
  const matches = (file: string): boolean => {
    if (!glob) return true;
    const target = glob.includes("/")
      ? path.relative(root, file).split(path.sep).join("/")
      : path.basename(file);
    return path.matchesGlob(target, glob);
  };
  if (stat.isFile()) {
    yield root;
    return;
  }
  const pending = [root];
  while (pending.length > 0) {
    if (signal.aborted) throw signal.reason;
    const dir = pending.shift() as string;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) subdirs.push(full);
      } else if (entry.isFile() && matches(full)) {
        yield full;
      }
    }
    pending.unshift(...subdirs);
  }
}
