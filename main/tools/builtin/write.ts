/** Write: create or replace a whole file (existing files must have been read first: the guard). */
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool } from "../define.ts";
import { displayPath, resolveToolPath } from "../workpath.ts";
import { fsError } from "./files.ts";

export const writeTool = defineTool({
  name: "Write",
  description:
    "Write a file with the given content, replacing it if it exists and creating missing parent " +
    "directories. An existing file must have been read (Read) in this session and not changed " +
    "since. Prefer Patch for small edits to existing files.",
  args: {
    path: z.string().min(1).describe("File path, absolute or relative to the working directory"),
    content: z.string().describe("The complete new file content"),
  },
  parallel: false,
  // Changing files needs a yes.
  approval: "ask",
  paths: (args, ctx) => {
    const file = resolveToolPath(ctx.workdir, args.path);
    return { write: [file], guard: [file], record: [file] };
  },
  async execute(args, ctx) {
    const file = resolveToolPath(ctx.workdir, args.path);
    const shown = displayPath(ctx.workdir, file);
    let existed = true;
    try {
      await fs.access(file);
    } catch {
      existed = false;
    }
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, args.content, { encoding: "utf8", signal: ctx.signal });
    } catch (err) {
      throw fsError(err, shown);
    }
    const bytes = Buffer.byteLength(args.content, "utf8");
    const lines = args.content === "" ? 0 : args.content.split("\n").length;
    return `${existed ? "Updated" : "Created"} ${shown} (${lines} line${lines === 1 ? "" : "s"}, ${bytes} bytes)`;
  },
});
