/** Grep: search file contents by regular expression (pure JS, no ripgrep needed). */
import { z } from "zod";
import { defineTool } from "../define.ts";
import { resolveToolPath } from "../workpath.ts";
import { DEFAULT_MAX_RESULTS } from "./grep-search.ts";
import { runSearch } from "./search-pool.ts";

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
  approval: "allow",
  paths: (args, ctx) => ({ read: [resolveToolPath(ctx.workdir, args.path ?? ".")] }),
  // The search runs in a worker (search-pool.ts): a pattern can backtrack for minutes.
  execute: (args, ctx) =>
    runSearch({ kind: "grep", args: { ...args, workdir: ctx.workdir } }, ctx.signal),
});
