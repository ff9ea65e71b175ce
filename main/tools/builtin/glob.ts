/** Glob: files matching a pattern, newest first (recently touched files are the likely targets). */
import { z } from "zod";
import { defineTool } from "../define.ts";
import { resolveToolPath } from "../workpath.ts";
import { MAX_RESULTS } from "./glob-search.ts";
import { runSearch } from "./search-pool.ts";

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
  approval: "allow",
  paths: (args, ctx) => ({ read: [resolveToolPath(ctx.workdir, args.path ?? ".")] }),
  // The search runs in a worker (search-pool.ts): a glob pattern can backtrack for minutes.
  execute: (args, ctx) =>
    runSearch({ kind: "glob", args: { ...args, workdir: ctx.workdir } }, ctx.signal),
});
