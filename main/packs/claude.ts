/**
 * Claude Code plugins in a pack (/work/shared/CLAUDE-COMPAT.md): folders with
 * `.claude-plugin/plugin.json`, and the plugins a `.claude-plugin/marketplace.json` lists with a
 * relative `source` inside the repository, with or without plugin.json. An entry from another
 * repository is not part of the pack: one line names them and how to add one (remote-entry.ts).
 * Read leniently, as the runtime reads them, as real marketplaces are messy: what will not load is
 * one line each, and the rest installs.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { walkFolder, type FolderEntry } from "../config/folder-walk.ts";
import type { PermissionItem } from "../host/questions.ts";
import { readClaudePlugin, type ClaudePlugin as ReadPlugin } from "../extensions/claude/plugin.ts";
import type { MarketEntry } from "../extensions/claude/manifest.ts";
import {
  readMarketplace,
  type Marketplace,
  type RemoteEntry,
} from "../code-plugins/loader/claude-marketplace.ts";
import { shellLines } from "../extensions/markdown/expand.ts";
import { itemKey } from "../code-plugins/consent/requests.ts";
import { isSkippedFolder, MANIFEST_NAME } from "../code-plugins/loader/walk.ts";
import { PackError } from "./types.ts";
import type { Problem, ProblemSink } from "../host/problem.ts";

export interface ClaudePlugin {
  name: string;
  dir: string;
  description: string;
  /** What it would run: hook commands, MCP servers, bin/ executables, commands' shell lines. */
  items: PermissionItem[];
}

/** Names of the `${VAR}`s in a plugin's JSON files (MCP servers may use them). */
async function varsMentioned(dir: string): Promise<string[]> {
  const names = new Set<string>();
  const visit = async ({ entry: e, full }: FolderEntry): Promise<void> => {
    if (e.isFile() && e.name.endsWith(".json"))
      for (const m of (await readFile(full, "utf8").catch(() => "")).matchAll(
        /\$\{([A-Za-z_][A-Za-z0-9_]*)/g,
      ))
        names.add(m[1]);
  };
  await walkFolder(dir, visit, { maxDepth: 3 });
  return [...names];
}

/**
 * What a Claude Code plugin would run on this machine, for the consent question: read by the
 * runtime's own reader (main/extensions/claude/), so every hook it would run (hooks/hooks.json,
 * the files and inline hooks plugin.json names), every MCP server it would start or connect to
 * (.mcp.json, plugin.json's mcpServers) and every shell line of its commands and skills is
 * listed, each command with its arguments. `${VAR}`s stay
 * as written (this machine's values, tokens included, are not put into the question or the grants),
 * and the plugin's folder shows as `${CLAUDE_PLUGIN_ROOT}`, the same before and after install.
 */
async function whatItRuns(
  plugin: ReadPlugin,
  dir: string,
  label: string,
): Promise<PermissionItem[]> {
  const asWritten = (s: string) => s.split(dir).join("${CLAUDE_PLUGIN_ROOT}");
  const items = new Map<string, PermissionItem>();
  const add = (item: PermissionItem) => items.set(itemKey(item), items.get(itemKey(item)) ?? item);
  for (const h of plugin.hooks)
    add({
      kind: "exec",
      target: asWritten(h.command),
      reason: `Claude Code ${h.event} hook${h.matcher ? ` (${h.matcher})` : ""} runs this command`,
    });
  for (const spec of plugin.mcpServers)
    if (spec.transport === "stdio")
      add({
        kind: "exec",
        target: asWritten([spec.command, ...spec.args].join(" ")),
        reason: `MCP server ${spec.name}: started when a conversation uses its tools`,
      });
    else
      add({
        kind: "network",
        target: asWritten(spec.url),
        reason: `MCP server ${spec.name}: its tools are called at this address`,
      });
  // A command's or skill's !`cmd` lines run when it is used (each asking like Bash).
  for (const c of plugin.commands)
    for (const line of shellLines(c.body))
      add({
        kind: "exec",
        target: asWritten(line),
        reason: `command /${c.name} runs this shell line when used`,
      });
  for (const s of plugin.skills)
    for (const line of shellLines(s.body))
      add({
        kind: "exec",
        target: asWritten(line),
        reason: `skill ${s.name} runs this shell line when used`,
      });
  try {
    if ((await stat(path.join(dir, "bin"))).isDirectory())
      add({
        kind: "exec",
        target: `${label}/bin/`,
        reason: "puts these programs on the Bash tool's PATH",
      });
  } catch {
    // no bin/
  }
  return [...items.values()];
}

/** The plugin at `dir`, read as it will load (with its marketplace entry, if one lists it). */
async function pluginAt(
  dir: string,
  label: string,
  warn: ProblemSink,
  market?: MarketEntry,
): Promise<ClaudePlugin> {
  const env = Object.fromEntries((await varsMentioned(dir)).map((n) => [n, `\${${n}}`]));
  const plugin = readClaudePlugin(dir, {
    scope: "global",
    heldBack: false,
    env,
    ...(market ? { market } : {}),
  });
  // What will not load is said now, as it will be at each load.
  for (const problem of [...plugin.errors, ...plugin.warnings]) warn(problem);
  return {
    name: plugin.name,
    dir,
    description: plugin.manifest.description ?? "",
    items: await whatItRuns(plugin, dir, label),
  };
}

/** Names a remote line lists; claude-plugins-official has 233, which the pack's card lists. */
const REMOTE_NAMED = 20;

/** One line for the plugins a marketplace lists from other repositories, and how to add one. */
function remoteLine(file: string, pack: string, remote: RemoteEntry[]): Problem {
  const n = remote.length;
  const names = remote.slice(0, REMOTE_NAMED).map((r) => r.name);
  const more =
    n > REMOTE_NAMED ? ` and ${n - REMOTE_NAMED} more (islet plugins search finds them)` : "";
  return {
    source: "packs",
    file,
    title: `${n} plugin${n === 1 ? "" : "s"} listed from other repositories ${n === 1 ? "is" : "are"} not part of this pack: ${names.join(", ")}${more}`,
    suggestion: `install one as a pack of its own with islet plugins add ${pack} --plugin NAME`,
  };
}

export interface ClaudeFound {
  plugins: ClaudePlugin[];
  /** What the marketplace at the root lists from other repositories. */
  remote: RemoteEntry[];
}

/**
 * Claude Code plugins under `root`: a marketplace's entries with a folder of the repository, and
 * folders with plugin.json. `recorded`: the pack was installed from a marketplace's entry, which
 * defines the plugin at `root`.
 */
export async function findClaudePlugins(
  root: string,
  label: string,
  warn: ProblemSink,
  recorded?: MarketEntry,
): Promise<ClaudeFound> {
  if (recorded) return { plugins: [await pluginAt(root, label, warn, recorded)], remote: [] };
  let market: Marketplace | undefined;
  try {
    market = await readMarketplace(root);
  } catch (err) {
    throw new PackError(`${label}/.claude-plugin/marketplace.json: ${(err as Error).message}`);
  }
  const found: ClaudePlugin[] = [];
  if (market) {
    for (const problem of market.problems) warn({ ...problem, source: "packs" });
    if (market.remote.length > 0) warn(remoteLine(market.file, label, market.remote));
    for (const l of market.local)
      found.push(
        await pluginAt(l.dir, path.join(label, path.relative(root, l.dir)), warn, {
          file: market.file,
          entry: l.entry,
        }),
      );
  }
  const listed = new Set(market?.local.map((l) => l.dir));
  const visit = async (dir: string): Promise<void> => {
    if (listed.has(dir)) return;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.name === MANIFEST_NAME)) return; // an Islet plugin
    if (entries.some((e) => e.name === ".claude-plugin" && e.isDirectory())) {
      try {
        await stat(path.join(dir, ".claude-plugin", "plugin.json"));
        found.push(await pluginAt(dir, path.join(label, path.relative(root, dir)), warn));
        return;
      } catch {
        // only a marketplace.json: keep looking below
      }
    }
    for (const e of entries)
      if (e.isDirectory() && !isSkippedFolder(e.name)) await visit(path.join(dir, e.name));
  };
  await visit(root);
  return { plugins: found, remote: market?.remote ?? [] };
}
