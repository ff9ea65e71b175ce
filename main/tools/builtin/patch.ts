/** Patch: replace an exact string in a file (existing files must have been read first: the guard). */
import fs from "node:fs/promises";
import { z } from "zod";
import { defineTool } from "../define.ts";
import { ToolError } from "../types.ts";
import { displayPath, resolveToolPath } from "../workpath.ts";
import { fsError } from "./files.ts";

export const patchTool = defineTool({
  name: "Patch",
  description:
    "Edit a file by replacing an exact string. old_string must match the file exactly " +
    "(whitespace and indentation included) and be unique unless replace_all is set; include " +
    "enough surrounding lines to make it unique. The file must have been read first.",
  args: {
    path: z.string().min(1).describe("File path, absolute or relative to the working directory"),
    old_string: z.string().describe("Exact text to replace"),
    new_string: z.string().describe("Replacement text"),
    replace_all: z.boolean().optional().describe("Replace every occurrence (default false)"),
  },
  parallel: false,
  // Changing files needs a yes.
  approval: "ask",
  paths: (args, ctx) => {
    const file = resolveToolPath(ctx.workdir, args.path);
    return { read: [file], write: [file], guard: [file], record: [file] };
  },
  async execute(args, ctx) {
    const file = resolveToolPath(ctx.workdir, args.path);
    const shown = displayPath(ctx.workdir, file);
    if (args.old_string === "") {
      throw new ToolError("old_string is empty; use Write to create a file or replace all of it");
    }
    if (args.old_string === args.new_string) {
      throw new ToolError("old_string and new_string are identical; nothing to change");
    }
    let content: string;
    try {
      content = await fs.readFile(file, { encoding: "utf8", signal: ctx.signal });
    } catch (err) {
      throw fsError(err, shown);
    }
    const count = countOccurrences(content, args.old_string);
    if (count === 0) {
      throw new ToolError(
        `old_string not found in ${shown}. It must match exactly, including whitespace and ` +
          "indentation; Read the file again to copy the exact text.",
      );
    }
    if (count > 1 && !args.replace_all) {
      throw new ToolError(
        `old_string occurs ${count} times in ${shown}; include more surrounding context to make ` +
          "it unique, or set replace_all to replace every occurrence.",
      );
    }
    // split/join rather than String.replace: `$&`-style patterns in new_string must stay literal.
    const updated = content.split(args.old_string).join(args.new_string);
    try {
      await fs.writeFile(file, updated, { encoding: "utf8", signal: ctx.signal });
    } catch (err) {
      throw fsError(err, shown);
    }
    const line = content.slice(0, content.indexOf(args.old_string)).split("\n").length;
    const where = count === 1 ? `at line ${line}` : `first at line ${line}`;
    return `Patched ${shown}: replaced ${count} occurrence${count === 1 ? "" : "s"} (${where})`;
  },
});

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    count++;
  }
  return count;
}
