/**
 * The loaders a Claude Code plugin's parts go through, one small function each, so that each can
 * be pointed at its owner's loader once that is on main:
 * - commands, skills: main/extensions/markdown (`loadCommands` / `loadSkills(dir, { namespace })`);
 *   until then their files are found and listed, not registered;
 * - agents: `loadAgents(dir, { namespace })` there; until then main's parseAgentFile;
 * - MCP servers: main/mcp `loadMcpConfig(file, { pluginRoot })`; until then names only.
 */
import { readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import type { AgentConfig } from "../../agents/definition.ts";
import { parseAgentFile } from "../../agents/load.ts";

export interface Found<T> {
  items: T[];
  /** One line per broken file (skipped). */
  errors: string[];
  warnings: string[];
}

export interface NamedFile {
  /** As users type it: `plugin:name`. */
  name: string;
  file: string;
}

/** `*.md` under `dir`, sub-folders included (a sub-folder changes only the label, as in Claude). */
function markdownFiles(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith(".")) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...markdownFiles(full));
    else if (/\.md$/i.test(e.name)) out.push(full);
  }
  return out;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Commands of `dirs`, named `namespace:NAME`. Point at MARKDOWN's loadCommands once merged. */
export function pluginCommands(dirs: readonly string[], namespace: string): Found<NamedFile> {
  const items = dirs.flatMap(markdownFiles).map((file) => ({
    name: `${namespace}:${path.basename(file).replace(/\.md$/i, "")}`,
    file,
  }));
  return { items, errors: [], warnings: [] };
}

/** Skills of `dirs` (`NAME/SKILL.md`, `NAME.md`). Point at MARKDOWN's loadSkills once merged. */
export function pluginSkills(dirs: readonly string[], namespace: string): Found<NamedFile> {
  const items: NamedFile[] = [];
  for (const dir of dirs) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith(".")) continue;
      const skill = path.join(dir, e.name, "SKILL.md");
      if (e.isDirectory() && isFile(skill))
        items.push({ name: `${namespace}:${e.name}`, file: skill });
      else if (e.isFile() && /\.md$/i.test(e.name))
        items.push({
          name: `${namespace}:${e.name.replace(/\.md$/i, "")}`,
          file: path.join(dir, e.name),
        });
    }
  }
  return { items, errors: [], warnings: [] };
}

/** Claude's model aliases and `inherit` mean "the session's model" here. */
const CLAUDE_MODEL_ALIASES = new Set(["inherit", "sonnet", "opus", "haiku"]);

/** Agents of `dirs`, named `namespace:NAME`. Point at MARKDOWN's loadAgents once merged. */
export function pluginAgents(dirs: readonly string[], namespace: string): Found<AgentConfig> {
  const out: Found<AgentConfig> = { items: [], errors: [], warnings: [] };
  for (const file of dirs.flatMap(markdownFiles)) {
    try {
      const agent = parseAgentFile(file, readFileSync(file, "utf8"));
      const model = agent.model && CLAUDE_MODEL_ALIASES.has(agent.model) ? undefined : agent.model;
      out.items.push({ ...agent, name: `${namespace}:${agent.name}`, model });
    } catch (err) {
      out.errors.push((err as Error).message.split("\n")[0]);
    }
  }
  return out;
}

/** Output styles (`output-styles/*.md`): listed; Islet has no output-style switch yet. */
export function pluginOutputStyles(dirs: readonly string[], namespace: string): Found<NamedFile> {
  const items = dirs.flatMap(markdownFiles).map((file) => ({
    name: `${namespace}:${path.basename(file).replace(/\.md$/i, "")}`,
    file,
  }));
  return { items, errors: [], warnings: [] };
}

/**
 * MCP servers of a `.mcp.json` (both `{"mcpServers": {…}}` and the flat `{name: cfg}`) or an
 * inline manifest map. Point at MCP's loadMcpConfig(file, { pluginRoot }) once merged.
 */
export function pluginMcpServers(
  from: string | Record<string, unknown>,
  label: string,
): Found<{ name: string; source: string }> {
  const out: Found<{ name: string; source: string }> = { items: [], errors: [], warnings: [] };
  let data: unknown = from;
  if (typeof from === "string") {
    let text: string;
    try {
      text = readFileSync(from, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT")
        out.errors.push(
          `${from}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
        );
      return out;
    }
    try {
      data = JSON.parse(text);
    } catch (err) {
      out.errors.push(`${from}: not valid JSON: ${(err as Error).message.split("\n")[0]}`);
      return out;
    }
  }
  const where = typeof from === "string" ? from : `${label} (plugin.json mcpServers)`;
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    out.errors.push(`${where}: expected a JSON object of servers`);
    return out;
  }
  const record = data as Record<string, unknown>;
  const servers =
    typeof record.mcpServers === "object" && record.mcpServers !== null
      ? record.mcpServers
      : record;
  for (const [name, cfg] of Object.entries(servers as Record<string, unknown>)) {
    if (typeof cfg !== "object" || cfg === null || Array.isArray(cfg)) {
      out.errors.push(
        `${where}: field "${name}": expected a server ({ "command": … } or { "url": … })`,
      );
      continue;
    }
    out.items.push({ name: `plugin_${label}_${name}`, source: where });
  }
  return out;
}
