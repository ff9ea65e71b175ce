/**
 * The one recursive walk of a folder (plugins, packs, trust): every entry below a root, depth
 * first, `.git` and `node_modules` not entered unless a caller says otherwise. A folder that
 * cannot be listed is passed over. Links are not followed: a linked folder is an entry whose
 * `isSymbolicLink()` is true, never entered. Also the stat-based checks of what is at a path.
 */
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

export interface FolderEntry {
  /** As listed (not followed when a link). */
  entry: Dirent;
  /** `root` joined with its path. */
  full: string;
  /** Its path below the root, forward slashes. */
  rel: string;
  /** How many folders deep below the root: 0 for the root's own entries. */
  depth: number;
}

export interface FolderWalkOptions {
  /** Folders not entered (they are still visited): default `.git` and `node_modules`, any depth. */
  skip?: (folder: FolderEntry) => boolean;
  /** Folders at this depth are visited but not entered (default: no limit). */
  maxDepth?: number;
  /** Each folder's entries in name order (UTF-16 code units); default as the system lists them. */
  sorted?: boolean;
  /** A folder's entries visited all at once (the first error wins); default one after another. */
  parallel?: boolean;
}

/** What `.git` and `node_modules` hold is history and dependencies, never the thing walked for. */
export const isSkippedFolder = (folder: FolderEntry): boolean =>
  folder.entry.name === ".git" || folder.entry.name === "node_modules";

/**
 * Calls `visit` for every entry below `root`, a folder before what it holds; `visit` returning
 * false ends the walk. A missing or unreadable root is an empty walk; what `visit` throws rejects.
 */
export async function walkFolder(
  root: string,
  visit: (found: FolderEntry) => void | boolean | Promise<void | boolean>,
  opts: FolderWalkOptions = {},
): Promise<void> {
  const skip = opts.skip ?? isSkippedFolder;
  const maxDepth = opts.maxDepth ?? Infinity;
  let ended = false;
  const one = async (found: FolderEntry): Promise<void> => {
    if (ended) return;
    if ((await visit(found)) === false) {
      ended = true;
      return;
    }
    if (found.entry.isDirectory() && found.depth < maxDepth && !skip(found))
      await walk(found.full, found.rel, found.depth + 1);
  };
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (opts.sorted) entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    const found = entries.map((entry) => ({
      entry,
      full: path.join(dir, entry.name),
      rel: rel ? `${rel}/${entry.name}` : entry.name,
      depth,
    }));
    if (opts.parallel) await Promise.all(found.map(one));
    else for (const f of found) await one(f);
  };
  await walk(root, "", 0);
}

/** Whether anything is at `p` (a link counts as what it leads to). */
export async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** Whether `p` is a folder (or a link to one). */
export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}
