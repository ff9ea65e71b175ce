/**
 * Glob's search itself. It runs in the search worker (search-pool.ts): glob patterns become
 * regular expressions that can backtrack for minutes on a long file name.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { displayPath, resolveToolPath } from "../workpath.ts";
import { fsError, SKIPPED_DIRS } from "./files.ts";

export const MAX_RESULTS = 100;
/** Stop walking a runaway pattern (`**` over a home directory) long before memory suffers. */
const MAX_SCANNED = 20_000;

export interface GlobJob {
  workdir: string;
  pattern: string;
  path?: string;
}

export async function globSearch(args: GlobJob): Promise<string> {
  const { workdir } = args;
  const root = resolveToolPath(workdir, args.path ?? ".");
  try {
    await fs.access(root);
  } catch (err) {
    throw fsError(err, displayPath(workdir, root));
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
  const lines = found.slice(0, MAX_RESULTS).map((f) => displayPath(workdir, f.file));
  if (found.length > MAX_RESULTS) {
    const total = capped ? `more than ${MAX_SCANNED}` : String(found.length);
    lines.push(
      `[${total} files match; showing the ${MAX_RESULTS} newest. Narrow the pattern or path.]`,
    );
  }
  return lines.join("\n");
}
