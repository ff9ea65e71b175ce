/** Ls: one directory's entries with type and size, directories first. */
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool } from "../define.ts";
import { ToolError } from "../types.ts";
import { displayPath, resolveToolPath } from "../workpath.ts";
import { formatBytes, fsError } from "./files.ts";

const MAX_ENTRIES = 1000;

export const lsTool = defineTool({
  name: "Ls",
  description:
    "List a directory: subdirectories first (marked with a trailing /), then files with their " +
    `sizes, each group sorted by name; at most ${MAX_ENTRIES} entries. Not recursive: use Glob for that.`,
  args: {
    path: z.string().min(1).optional().describe("Directory to list (default: working directory)"),
  },
  parallel: true,
  approval: "allow",
  paths: (args, ctx) => ({ read: [resolveToolPath(ctx.workdir, args.path ?? ".")] }),
  async execute(args, ctx) {
    const dir = resolveToolPath(ctx.workdir, args.path ?? ".");
    const shown = displayPath(ctx.workdir, dir);
    let names: string[];
    try {
      const stat = await fs.stat(dir);
      if (!stat.isDirectory())
        throw new ToolError(`${shown} is a file, not a directory; use Read to read it`);
      names = await fs.readdir(dir);
    } catch (err) {
      throw err instanceof ToolError ? err : fsError(err, shown);
    }
    if (names.length === 0) return `${shown} is empty`;
    const entries = await Promise.all(names.map((name) => describe(dir, name)));
    entries.sort((a, b) => Number(b.isDir) - Number(a.isDir) || compareNames(a.name, b.name));
    const lines = entries.slice(0, MAX_ENTRIES).map((e) => e.line);
    if (entries.length > MAX_ENTRIES)
      lines.push(`[${entries.length - MAX_ENTRIES} more entries not shown]`);
    return `${shown}:\n${lines.join("\n")}`;
  },
});

async function describe(
  dir: string,
  name: string,
): Promise<{ name: string; isDir: boolean; line: string }> {
  const full = path.join(dir, name);
  const link = await fs.lstat(full).catch(() => null);
  // Follow symlinks for type and size, but say that it is a link and where it points.
  const target = link?.isSymbolicLink() ? await fs.stat(full).catch(() => null) : link;
  const arrow = link?.isSymbolicLink() ? ` -> ${await fs.readlink(full).catch(() => "?")}` : "";
  if (!target) return { name, isDir: false, line: `${name}${arrow}  (broken link)` };
  if (target.isDirectory()) return { name, isDir: true, line: `${name}/${arrow}` };
  const kind = target.isFile() ? formatBytes(target.size) : "special file";
  return { name, isDir: false, line: `${name}${arrow}  (${kind})` };
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
