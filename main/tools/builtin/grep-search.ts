/**
 * Grep's search itself: walk, read, match, format. It runs in the search worker (search-pool.ts),
 * never on the engine's thread: a pattern can backtrack for minutes.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { ToolError } from "../types.ts";
import { displayPath, resolveToolPath } from "../workpath.ts";
import { fsError, looksBinary, SKIPPED_DIRS } from "./files.ts";

export const DEFAULT_MAX_RESULTS = 200;
/** Larger files are almost always generated data or logs; searching them floods the model. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_LINE_CHARS = 500;

/** Grep's validated arguments, plus the working directory they are relative to. */
export interface GrepJob {
  workdir: string;
  pattern: string;
  path?: string;
  glob?: string;
  case_insensitive?: boolean;
  output_mode?: "content" | "files_with_matches" | "count";
  context?: number;
  max_results?: number;
}

export async function grepSearch(args: GrepJob): Promise<string> {
  let regex: RegExp;
  try {
    regex = new RegExp(args.pattern, args.case_insensitive ? "i" : "");
  } catch (err) {
    throw new ToolError(
      `Invalid regular expression: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const { workdir } = args;
  const root = resolveToolPath(workdir, args.path ?? ".");
  const mode = args.output_mode ?? "files_with_matches";
  const max = args.max_results ?? DEFAULT_MAX_RESULTS;
  const context = mode === "content" ? (args.context ?? 0) : 0;
  const out: string[] = [];
  let listed = 0;
  let capped = false;

  for await (const file of walk(root, workdir, args.glob)) {
    const lines = await readTextLines(file);
    if (!lines) continue;
    const hits: number[] = [];
    for (let i = 0; i < lines.length; i++) if (regex.test(lines[i])) hits.push(i);
    if (hits.length === 0) continue;
    const shown = displayPath(workdir, file);
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
    out.push(`[results capped at ${max}; narrow the pattern, path or glob, or raise max_results]`);
  return out.join("\n");
}

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
