/** Glob: files matching a pattern, newest first (recently touched files are the likely targets). */
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool } from "../define.ts";
import { displayPath, resolveToolPath } from "../workpath.ts";
import { fsError, SKIPPED_DIRS } from "./files.ts";

const MAX_RESULTS = 100;
/** Stop walking a runaway pattern (`**` over a home directory) long before memory suffers. */
const MAX_SCANNED = 20_000;

export const globTool = defineTool({
  name: "Glob",
  description:
    "Find files by glob pattern (e.g. `**/*.ts`, `src/**/test_*.py`), sorted by modification " +
    `time, newest first; at most ${MAX_RESULTS} paths. node_modules and .git are skipped unless ` +
    "the pattern names them; hidden files match only when the pattern names them.",
  args: {
    pattern: z.string().min(1).describe("Glob pattern (`*`, `**`, `?`, `{a,b}`, `[abc]`)"),
    path: z.string().min(1).optional().describe("Directory to search (default: working directory)"),
  },
  parallel: true,
  paths: (args, ctx) => ({ read: [resolveToolPath(ctx.workdir, args.path ?? ".")] }),
  async execute(args, ctx) {
    const root = resolveToolPath(ctx.workdir, args.path ?? ".");
    try {
      await fs.access(root);
    } catch (err) {
      throw fsError(err, displayPath(ctx.workdir, root));
    }
    // A pattern naming node_modules (as a path segment) is asking to search it.
    const segments = args.pattern.split(/[\\/]/);
    const skipped = [...SKIPPED_DIRS].filter((dir) => !segments.includes(dir));
    const found: { file: string; mtimeMs: number }[] = [];
    let capped = false;
    const entries = fs.glob(args.pattern, {
      cwd: root,
      withFileTypes: true,
      exclude: (entry) => entry.isDirectory() && skipped.includes(entry.name),
    });
    for await (const entry of entries) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (!entry.isFile() && !entry.isSymbolicLink()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat?.isFile()) continue;
      found.push({ file, mtimeMs: stat.mtimeMs });
      if (found.length >= MAX_SCANNED) {
        capped = true;
        break;
      }
    }
    if (found.length === 0) return `No files match ${args.pattern}`;
    found.sort((a, b) => b.mtimeMs - a.mtimeMs || a.file.localeCompare(b.file));
    const lines = found.slice(0, MAX_RESULTS).map((f) => displayPath(ctx.workdir, f.file));
    if (found.length > MAX_RESULTS) {
      const total = capped ? `more than ${MAX_SCANNED}` : String(found.length);
      lines.push(
        `[${total} files match; showing the ${MAX_RESULTS} newest. Narrow the pattern or path.]`,
      );
    }
    return lines.join("\n");
  },
});
