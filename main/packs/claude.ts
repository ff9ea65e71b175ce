/**
 * Claude Code plugins in a pack (/work/shared/CLAUDE-COMPAT.md): folders with
 * `.claude-plugin/plugin.json`, and the plugins a `.claude-plugin/marketplace.json` lists with a
 * relative `source` inside the repository. A marketplace entry from another repository is not
 * installed: a warning names it and the command that adds it. Read leniently (unknown fields
 * ignored), as real marketplaces are messy.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { PermissionItem } from "../host/questions.ts";
import { readClaudePlugin } from "../extensions/claude/plugin.ts";
import { shellLines } from "../extensions/markdown/expand.ts";
import { itemKey } from "../code-plugins/consent/requests.ts";
import { isInside } from "../code-plugins/loader/origin-scope.ts";
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

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

async function readJson(file: string, label: string): Promise<Json | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const data: unknown = JSON.parse(text);
    if (!isObject(data)) throw new Error("expected an object");
    return data;
  } catch (err) {
    throw new PackError(`${label}: not valid JSON (${(err as Error).message.split("\n")[0]})`);
  }
}

/** Names of the `${VAR}`s in a plugin's JSON files (MCP servers may use them). */
async function varsMentioned(dir: string): Promise<string[]> {
  const names = new Set<string>();
  const visit = async (d: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory() && depth < 3 && e.name !== "node_modules" && e.name !== ".git")
        await visit(full, depth + 1);
      else if (e.isFile() && e.name.endsWith(".json"))
        for (const m of (await readFile(full, "utf8").catch(() => "")).matchAll(
          /\$\{([A-Za-z_][A-Za-z0-9_]*)/g,
        ))
          names.add(m[1]);
    }
  };
  await visit(dir, 0);
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
async function whatItRuns(dir: string, label: string): Promise<PermissionItem[]> {
  const env = Object.fromEntries((await varsMentioned(dir)).map((n) => [n, `\${${n}}`]));
  const plugin = readClaudePlugin(dir, { scope: "global", heldBack: false, env });
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

async function pluginAt(
  dir: string,
  fallbackName: string,
  label: string,
  entry?: Json,
): Promise<ClaudePlugin> {
  const manifest = await readJson(
    path.join(dir, ".claude-plugin", "plugin.json"),
    `${label}/.claude-plugin/plugin.json`,
  );
  const name = typeof manifest?.name === "string" && manifest.name ? manifest.name : fallbackName;
  const description =
    typeof manifest?.description === "string"
      ? manifest.description
      : typeof entry?.description === "string"
        ? entry.description
        : "";
  return { name, dir, description, items: await whatItRuns(dir, label) };
}

/** How a marketplace entry from elsewhere is added by hand. */
function elsewhere(source: Json): string {
  if (source.source === "github" && typeof source.repo === "string")
    return `github ${source.repo}: add it with \`islet plugins add ${source.repo}${typeof source.ref === "string" ? ` --ref ${source.ref}` : ""}\``;
  if (typeof source.url === "string") {
    const sub = typeof source.path === "string" ? ` --subpath ${source.path}` : "";
    return `${source.url}: add it with \`islet plugins add ${source.url}${sub}\``;
  }
  return "another repository: it cannot be installed from this pack";
}

function marketProblem(file: string, title: string): Problem {
  return { source: "packs", file, title };
}

async function fromMarketplace(
  root: string,
  label: string,
  warn: ProblemSink,
): Promise<ClaudePlugin[]> {
  const file = `${label}/.claude-plugin/marketplace.json`;
  const market = await readJson(path.join(root, ".claude-plugin", "marketplace.json"), file);
  if (!market) return [];
  if (!Array.isArray(market.plugins)) throw new PackError(`${file}: plugins: expected a list`);
  const pluginRoot =
    isObject(market.metadata) && typeof market.metadata.pluginRoot === "string"
      ? market.metadata.pluginRoot
      : "";
  const realRoot = await realpath(root);
  const out: ClaudePlugin[] = [];
  for (const [i, entry] of market.plugins.entries()) {
    if (!isObject(entry) || typeof entry.name !== "string") {
      warn(marketProblem(file, `plugins[${i}]: no name, skipped`));
      continue;
    }
    const source = entry.source;
    if (isObject(source)) {
      warn(marketProblem(file, `plugin "${entry.name}" comes from ${elsewhere(source)}`));
      continue;
    }
    if (typeof source !== "string") {
      warn(marketProblem(file, `plugin "${entry.name}": no source, skipped`));
      continue;
    }
    const rel =
      source.startsWith("./") || source.startsWith("../plugins/") || !pluginRoot
        ? source
        : path.join(pluginRoot, source);
    const dir = path.resolve(root, rel);
    let real: string;
    try {
      real = await realpath(dir);
    } catch {
      warn(
        marketProblem(
          file,
          `plugin "${entry.name}": ${source} does not exist in the repository, skipped`,
        ),
      );
      continue;
    }
    if (!isInside(realRoot, real)) {
      warn(
        marketProblem(
          file,
          `plugin "${entry.name}": ${source} leads outside the repository, skipped`,
        ),
      );
      continue;
    }
    out.push(await pluginAt(dir, entry.name, `${label}/${path.relative(root, dir)}`, entry));
  }
  return out;
}

/** Claude Code plugins under `root` (folders with plugin.json, and marketplace entries). */
export async function findClaudePlugins(
  root: string,
  label: string,
  warn: ProblemSink,
): Promise<ClaudePlugin[]> {
  const found = await fromMarketplace(root, label, warn);
  const listed = new Set(found.map((p) => p.dir));
  const visit = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.name === MANIFEST_NAME)) return; // an Islet plugin
    const manifest = path.join(dir, ".claude-plugin", "plugin.json");
    if (entries.some((e) => e.name === ".claude-plugin" && e.isDirectory())) {
      try {
        await stat(manifest);
        if (!listed.has(dir))
          found.push(
            await pluginAt(dir, path.basename(dir), path.join(label, path.relative(root, dir))),
          );
        return;
      } catch (err) {
        if (err instanceof PackError) throw err;
        // only a marketplace.json: keep looking below
      }
    }
    for (const e of entries)
      if (e.isDirectory() && !isSkippedFolder(e.name)) await visit(path.join(dir, e.name));
  };
  await visit(root);
  return found;
}
