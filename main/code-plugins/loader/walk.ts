/**
 * Finds plugin folders under a plugins dir (seed 000 "Directory Structure"): recursive, with the
 * nesting invisible to the system; a folder holding plugin.yaml is a plugin and is not searched
 * further (its node_modules and nested plugins belong to it). A folder holding
 * `.claude-plugin/plugin.json` is a Claude Code plugin (main/extensions/claude/): listed apart,
 * and not searched further either. So is a CLI-tool runner plugin (main/extensions/runners/): a
 * folder with `manifest.json`, or whose plugin.yaml has a `runner:` key; code plugin discovery
 * never sees it. A folder a Claude Code marketplace lists (`.claude-plugin/marketplace.json`) is a
 * Claude Code plugin too, with or without its own plugin.json, as Claude Code reads it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { closeSync, constants, fstatSync, openSync, readFileSync, type Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import type { Problem } from "../../host/problem.ts";
import { readMarketplace, type JsonObject, type Marketplace } from "./claude-marketplace.ts";
import { ORIGIN_FILE, originScope } from "./origin-scope.ts";
import { problemIn } from "./yaml-errors.ts";

export const MANIFEST_NAME = "plugin.yaml";
/** A Claude Code plugin's manifest, relative to its folder. */
export const CLAUDE_MANIFEST = path.join(".claude-plugin", "plugin.json");
/** A runner plugin's manifest in the seed's format (a plugin.yaml with `runner:` is one too). */
export const RUNNER_MANIFEST = "manifest.json";

/** Never plugins, and often huge: dependency trees and vendored code. */
const SKIPPED = new Set(["node_modules", "vendor"]);

export function isSkippedFolder(name: string): boolean {
  return name.startsWith(".") || SKIPPED.has(name);
}

/** When a pack was installed, and when updates brought the plugins they added (by name). */
export interface PackTimes {
  installedAt: string;
  addedAt?: Record<string, string>;
}

export interface WalkResult {
  /** Absolute plugin folders, in a stable (sorted) order. */
  folders: string[];
  /** Absolute Claude Code plugin folders (no plugin.yaml), sorted. */
  claudeFolders: string[];
  /** Absolute runner plugin folders, sorted. */
  runnerFolders: string[];
  /**
   * The marketplace entry of each Claude Code plugin folder a marketplace lists (or a pack
   * installed from one records), and the file it is in.
   */
  claudeEntries: Map<string, { file: string; entry: JsonObject }>;
  /** Every marketplace found, with what it lists from elsewhere and the entries it skipped. */
  marketplaces: Marketplace[];
  /**
   * Each installed pack's folder (one below the root) and when it was installed, and when updates
   * brought the plugins they added (.origin.yaml).
   */
  packsInstalled: Map<string, PackTimes>;
  errors: Problem[];
  /**
   * Each code plugin folder's plugin.yaml as read here (the runner check reads it anyway), so
   * discovery validates this text instead of reading the file a second time.
   */
  manifests: Map<string, string>;
}

async function isDirectory(full: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  // A linked plugin (or pack) is a common way to develop one in place.
  try {
    return (await stat(full)).isDirectory();
  } catch {
    return false;
  }
}

interface SharedWalks {
  done: boolean;
  walks: Map<string, Promise<WalkResult>>;
}

const sharing = new AsyncLocalStorage<SharedWalks>();

/**
 * Runs `fn` with each plugins dir walked once: an engine's start asks for the same folders from
 * several sources (trust, Claude Code plugins, runners, code plugins), and with hundreds of
 * plugins each walk costs. Only while `fn` runs: what it leaves running walks afresh.
 */
export async function sharingWalks<T>(fn: () => Promise<T>): Promise<T> {
  const shared: SharedWalks = { done: false, walks: new Map() };
  try {
    return await sharing.run(shared, fn);
  } finally {
    shared.done = true;
    shared.walks.clear();
  }
}

/** All plugin folders below `root` (root itself counts if it holds plugin.yaml). Missing root = none. */
export async function findPluginFolders(root: string): Promise<WalkResult> {
  const shared = sharing.getStore();
  if (!shared || shared.done) return walkPluginFolders(root);
  const key = path.resolve(root);
  let walk = shared.walks.get(key);
  if (!walk) {
    walk = walkPluginFolders(root);
    shared.walks.set(key, walk);
  }
  const r = await walk;
  // Each caller gets lists of its own.
  return {
    folders: [...r.folders],
    claudeFolders: [...r.claudeFolders],
    runnerFolders: [...r.runnerFolders],
    claudeEntries: new Map(r.claudeEntries),
    marketplaces: [...r.marketplaces],
    packsInstalled: new Map(r.packsInstalled),
    errors: [...r.errors],
    manifests: new Map(r.manifests),
  };
}

async function walkPluginFolders(root: string): Promise<WalkResult> {
  const result: WalkResult = {
    folders: [],
    claudeFolders: [],
    runnerFolders: [],
    claudeEntries: new Map(),
    marketplaces: [],
    packsInstalled: new Map(),
    errors: [],
    manifests: new Map(),
  };
  const seen = new Set<string>();
  const listed = result.claudeEntries;

  /** `knownReal`: the real path when the parent's is known and `dir` is no link. */
  async function visit(dir: string, isRoot: boolean, depth = 0, knownReal?: string): Promise<void> {
    let real: string;
    try {
      real = knownReal ?? (await realpath(dir));
    } catch (err) {
      if (!isRoot || (err as NodeJS.ErrnoException).code !== "ENOENT") {
        result.errors.push(problemIn(dir, "cannot open", errCode(err)));
      }
      return;
    }
    if (seen.has(real)) return; // a symlink loop, or two links to one folder
    seen.add(real);
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      const code = errCode(err);
      if (isRoot && code === "ENOTDIR") {
        result.errors.push(problemIn(dir, "plugins dir is not a folder"));
      } else {
        result.errors.push(problemIn(dir, "cannot list", code));
      }
      return;
    }
    // A pack installed with --subpath: only that folder of it counts (origin-scope.ts).
    if (depth === 1 && entries.some((e) => e.name === ORIGIN_FILE && e.isFile())) {
      const scope = await originScope(dir);
      if ("error" in scope) {
        result.errors.push(scope.error);
        return;
      }
      if (scope.claudeEntry)
        listed.set(scope.folder, { file: path.join(dir, ORIGIN_FILE), entry: scope.claudeEntry });
      if (scope.installedAt)
        result.packsInstalled.set(dir, {
          installedAt: scope.installedAt,
          ...(scope.addedAt ? { addedAt: scope.addedAt } : {}),
        });
      if (scope.folder !== dir) return visit(scope.folder, false, depth + 1);
    }
    if (entries.some((e) => e.name === MANIFEST_NAME && !e.isDirectory())) {
      const text = readText(path.join(dir, MANIFEST_NAME));
      if (text !== undefined && hasRunnerKey(text)) result.runnerFolders.push(dir);
      else {
        result.folders.push(dir);
        if (text !== undefined) result.manifests.set(dir, text);
      }
      return;
    }
    const claudeDir = entries.some((e) => e.name === ".claude-plugin");
    const market = claudeDir ? await readMarketplace(dir).catch(() => undefined) : undefined;
    if (market) {
      result.marketplaces.push(market);
      for (const l of market.local)
        if (!listed.has(l.dir)) listed.set(l.dir, { file: market.file, entry: l.entry });
    }
    if (listed.has(dir) || (claudeDir && (await isFile(path.join(dir, CLAUDE_MANIFEST))))) {
      result.claudeFolders.push(dir);
      return;
    }
    if (entries.some((e) => e.name === RUNNER_MANIFEST && !e.isDirectory())) {
      result.runnerFolders.push(dir);
      return;
    }
    const subdirs: [string, string | undefined][] = [];
    for (const e of entries) {
      if (isSkippedFolder(e.name)) continue;
      const full = path.join(dir, e.name);
      // Below a real folder, a folder that is no link is where its name says (no realpath call).
      if (await isDirectory(full, e))
        subdirs.push([full, e.isSymbolicLink() ? undefined : path.join(real, e.name)]);
    }
    subdirs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    await Promise.all(subdirs.map(([d, r]) => visit(d, false, depth + 1, r)));
  }

  await visit(path.resolve(root), true);
  // Listed folders the walk did not reach (a marketplace at a plugin's root lists past it).
  const taken = new Set([...result.folders, ...result.claudeFolders, ...result.runnerFolders]);
  for (const dir of listed.keys()) if (!taken.has(dir)) result.claudeFolders.push(dir);
  result.folders.sort();
  result.claudeFolders.sort();
  result.runnerFolders.sort();
  return result;
}

/**
 * A small file's text, or undefined when it cannot be read or is not a regular file (its reader
 * then tries again and reports why). Synchronous: one blocking read of a few hundred bytes costs a
 * fraction of the four thread-pool round trips of fs/promises readFile (open, stat, read, close).
 * Opened non-blocking and checked before reading, so a FIFO named plugin.yaml cannot freeze the
 * host's event loop.
 */
export function readText(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    return fstatSync(fd).isFile() ? readFileSync(fd, "utf8") : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A plugin.yaml with a top-level `runner:` (one that does not parse stays a code plugin's, whose loader reports it). */
function hasRunnerKey(text: string): boolean {
  // Most manifests never mention it: no YAML parse for them.
  if (!text.includes("runner")) return false;
  try {
    const data: unknown = parseYaml(text);
    return typeof data === "object" && data !== null && !Array.isArray(data) && "runner" in data;
  } catch {
    return false;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}
