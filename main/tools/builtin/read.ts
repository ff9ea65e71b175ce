/** Read: a text file as numbered lines (like `cat -n`), optionally a window of it. */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import readline from "node:readline";
import { z } from "zod";
import { defineTool } from "../define.ts";
import { ToolError } from "../types.ts";
import { displayPath, resolveToolPath } from "../workpath.ts";
import { formatBytes, fsError, sniffBinary } from "./files.ts";

const DEFAULT_LIMIT = 2000;
/** Minified files have megabyte lines; the model gets the start of each, marked as cut. */
const MAX_LINE_CHARS = 2000;

export const readTool = defineTool({
  name: "Read",
  description:
    "Read a text file. Output is numbered lines like `cat -n` (the numbers are not part of the file). " +
    `Reads up to ${DEFAULT_LIMIT} lines from the start unless offset/limit say otherwise. ` +
    "A file must be read before Write or Patch may change it.",
  args: {
    path: z.string().min(1).describe("File path, absolute or relative to the working directory"),
    offset: z.number().int().min(1).optional().describe("First line to show (1-based)"),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Number of lines to show (default ${DEFAULT_LIMIT})`),
  },
  parallel: true,
  // Reading and planning are harmless: no question before they run.
  approval: "allow",
  paths: (args, ctx) => {
    const file = resolveToolPath(ctx.workdir, args.path);
    return { read: [file], record: [file] };
  },
  async execute(args, ctx) {
    const file = resolveToolPath(ctx.workdir, args.path);
    const shown = displayPath(ctx.workdir, file);
    let size: number;
    try {
      const stat = await fs.stat(file);
      if (stat.isDirectory()) throw new ToolError(`${shown} is a directory; use Ls to list it`);
      size = stat.size;
      if (size === 0) return `(${shown} is empty)`;
      if (await sniffBinary(file)) {
        throw new ToolError(
          `${shown} is a binary file (${formatBytes(size)}); Read shows text files only`,
        );
      }
    } catch (err) {
      throw err instanceof ToolError ? err : fsError(err, shown);
    }
    const first = args.offset ?? 1;
    const last = first + (args.limit ?? DEFAULT_LIMIT) - 1;
    const shownLines: string[] = [];
    let total = 0;
    const lines = readline.createInterface({
      input: createReadStream(file, { encoding: "utf8", signal: ctx.signal }),
      crlfDelay: Infinity,
    });
    try {
      for await (const line of lines) {
        total++;
        if (total < first || total > last) continue;
        const text =
          line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} [… line cut]` : line;
        shownLines.push(`${String(total).padStart(6)}\t${text}`);
      }
    } catch (err) {
      throw fsError(err, shown);
    }
    if (first > total) {
      throw new ToolError(`${shown} has ${total} lines; offset ${first} is past the end`);
    }
    let output = shownLines.join("\n");
    const lastShown = Math.min(last, total);
    if (first > 1 || lastShown < total) {
      output += `\n[showing lines ${first}-${lastShown} of ${total}; use offset to read more]`;
    }
    return output;
  },
});
