/**
 * Checks a staged pack before anything is installed: the subpath is a folder inside it, no
 * symlink leads out of it, it holds at least one plugin (plugin.yaml, or a Claude Code plugin),
 * every Islet plugin's manifest reads, has an entry and is written for this SDK. Messages name the
 * files as the repository has them (`tools/greet/plugin.yaml`), never the staging folder.
 */
import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";
import { walkFolder, type FolderEntry } from "../config/folder-walk.ts";
import type { PermissionItem } from "../host/questions.ts";
import { requestedItems } from "../code-plugins/consent/requests.ts";
import { discoverPlugins, type Discovery } from "../code-plugins/loader/discover.ts";
import type { PluginManifest } from "../code-plugins/loader/manifest.ts";
import { isInside } from "../code-plugins/loader/origin-scope.ts";
import { findClaudePlugins, type ClaudeFound } from "./claude.ts";
import type { MarketEntry } from "../extensions/claude/manifest.ts";
import type { RemoteEntry } from "../code-plugins/loader/claude-marketplace.ts";
import { findRunners, type PackRunner } from "./runners.ts";
import { PackError, type PackScope } from "./types.ts";
import type { Problem } from "../host/problem.ts";

export interface StagedPlugin {
  name: string;
  /** Folder relative to the pack root ("" = the root), with forward slashes. */
  rel: string;
  /** Absolute folder in staging. */
  dir: string;
  format: "islet" | "claude" | "runner";
  description: string;
  /** False for `disabled: true` (installed, not loaded, not built, not asked about). */
  enabled: boolean;
  entry?: string;
  manifest?: PluginManifest;
  /** What it asks for (Islet, its tool override included) or would run (Claude Code, runners). */
  items: PermissionItem[];
}

export interface StagedPack {
  root: string;
  /** The folder whose plugins count (the root, or its subpath). */
  scope: string;
  plugins: StagedPlugin[];
  /** What its Claude Code marketplace lists from other repositories (each a pack of its own). */
  remote: RemoteEntry[];
}

/** `override: true`: the plugin's tool answers for any tool of its name, Read or Bash included. */
const OVERRIDE_ITEM: PermissionItem = {
  kind: "override",
  target: "",
  reason: "its tool answers the model instead of the one it replaces",
};

/** Replaces the staging folder in a message with the pack's name. */
export function relabel(message: string, root: string, label: string): string {
  return message.split(root).join(label);
}

/** The same in every text of a problem (its file above all). */
function relabelProblem(problem: Problem, root: string, label: string): Problem {
  const out: Problem = { ...problem };
  for (const key of ["source", "file", "title", "cause", "suggestion"] as const) {
    const text = out[key];
    if (text !== undefined) out[key] = relabel(text, root, label);
  }
  return out;
}

/** The subpath's folder: inside the pack, also after resolving symlinks. */
async function scopeFolder(
  root: string,
  subpath: string | undefined,
  where: string,
): Promise<string> {
  if (!subpath) return root;
  const folder = path.join(root, ...subpath.split("/"));
  let real: string;
  try {
    real = await realpath(folder);
  } catch {
    throw new PackError(`--subpath ${subpath} does not exist in ${where}`);
  }
  if (!isInside(await realpath(root), real))
    throw new PackError(`--subpath ${subpath} leads outside ${where} through a symlink`);
  if (!(await lstat(real)).isDirectory())
    throw new PackError(`--subpath ${subpath} is a file in ${where}, not a folder`);
  return folder;
}

/**
 * Every symlink under `root` (but .git) must point inside it: a link to ~/.ssh/id_rsa would put
 * the file into the plugin's bundle, a link out of the pack lets it read what it was not given.
 */
export async function checkSymlinks(root: string, label: string): Promise<void> {
  const realRoot = await realpath(root);
  // node_modules is walked too: a dependency may not link out either.
  const rootGit = (f: FolderEntry) => f.depth === 0 && f.entry.name === ".git";
  const visit = async (f: FolderEntry): Promise<void> => {
    if (rootGit(f) || !f.entry.isSymbolicLink()) return;
    const link = await readlink(f.full);
    const real = await realpath(f.full).catch(() => null);
    const lexical = path.resolve(path.dirname(f.full), link);
    const inside = real
      ? isInside(realRoot, real)
      : isInside(root, lexical) || isInside(realRoot, lexical);
    if (!inside)
      throw new PackError(
        `${relabel(f.full, root, label)} is a symlink leading outside the pack (to ${link}): packs may not link out of their folder`,
      );
  };
  await walkFolder(root, visit, { skip: rootGit, parallel: true });
}

export async function validateStaged(opts: {
  root: string;
  subpath?: string;
  /** The pack's name, for messages. */
  label: string;
  /** Where it comes from, for messages ("https://…" or a folder). */
  where: string;
  scope: PackScope;
  warn(problem: Problem): void;
  /** Installed from a marketplace's entry: it defines the Claude Code plugin at the scope. */
  claudeEntry?: MarketEntry;
}): Promise<StagedPack> {
  const { root, label } = opts;
  const scope = await scopeFolder(root, opts.subpath, opts.where);
  // Four walks of the tree at once; the symlink check's verdict comes first.
  const [links, discovered, claudeFound, runnersFound] = await Promise.allSettled([
    checkSymlinks(root, label),
    discoverPlugins({ dirs: [{ dir: scope, home: scope, source: opts.scope }] }),
    findClaudePlugins(
      scope,
      label,
      (w) => opts.warn(relabelProblem(w, root, label)),
      opts.claudeEntry,
    ),
    findRunners(scope, (text) => relabel(text, root, label)),
  ]);
  for (const r of [links, discovered, claudeFound, runnersFound])
    if (r.status === "rejected") throw r.reason;
  const found = (discovered as PromiseFulfilledResult<Discovery>).value;
  const { plugins: claude, remote } = (claudeFound as PromiseFulfilledResult<ClaudeFound>).value;
  const runners = (runnersFound as PromiseFulfilledResult<PackRunner[]>).value;
  if (found.errors.length > 0) throw new PackError(relabelProblem(found.errors[0], root, label));
  for (const w of found.warnings) opts.warn(relabelProblem(w, root, label));
  const rel = (dir: string) => path.relative(root, dir).split(path.sep).join("/");
  const plugins: StagedPlugin[] = found.plugins.map((p) => ({
    name: p.name,
    rel: rel(p.dir),
    dir: p.dir,
    format: "islet",
    description: p.manifest.description,
    enabled: p.status === "enabled",
    entry: p.entry,
    manifest: p.manifest,
    items:
      p.status !== "enabled"
        ? []
        : p.manifest.override
          ? [...requestedItems(p.manifest), OVERRIDE_ITEM]
          : requestedItems(p.manifest),
  }));
  for (const c of claude)
    plugins.push({
      name: c.name,
      rel: rel(c.dir),
      dir: c.dir,
      format: "claude",
      description: c.description,
      enabled: true,
      items: c.items,
    });
  for (const r of runners)
    plugins.push({
      name: r.name,
      rel: rel(r.dir),
      dir: r.dir,
      format: "runner",
      description: r.description,
      enabled: true,
      items: r.items,
    });
  if (plugins.length === 0 && remote.length > 0)
    throw new PackError(
      `${opts.where} lists only plugins from other repositories: install one with --plugin NAME (${remote.map((r) => r.name).join(", ")})`,
    );
  if (plugins.length === 0)
    throw new PackError(
      `no plugin in ${opts.where}${opts.subpath ? ` under ${opts.subpath}` : ""}: expected plugin.yaml, .claude-plugin/plugin.json or .claude-plugin/marketplace.json`,
    );
  const seen = new Map<string, StagedPlugin>();
  for (const p of plugins) {
    const other = seen.get(p.name);
    if (other)
      throw new PackError(
        `the pack has two plugins named "${p.name}" (${label}/${other.rel} and ${label}/${p.rel})`,
      );
    seen.set(p.name, p);
  }
  plugins.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { root, scope, plugins, remote };
}
