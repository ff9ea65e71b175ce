/**
 * A Claude Code plugin's parts through the loaders every other source uses: commands and skills
 * (main/extensions/markdown), agents (main/agents/load.ts), MCP servers (main/mcp), each named
 * `plugin:name` (MCP: `plugin_<plugin>_<server>`). A manifest path may name a folder or one file.
 */
import { readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import type { AgentConfig } from "../../agents/definition.ts";
import { loadAgents, readAgentFile } from "../../agents/load.ts";
import type { McpServerSpec } from "../../mcp/config.ts";
import { pluginMcpServers } from "../../mcp/plugin-servers.ts";
import { loadCommands, parseCommandFile, type MarkdownCommand } from "../markdown/commands.ts";
import { fileProblem, type Loaded } from "../../config/frontmatter-fields.ts";
import type { Problem } from "../../host/problem.ts";
import { loadSkill, loadSkills, type Skill } from "../markdown/skills.ts";

export type Found<T> = Loaded<T>;

export interface NamedFile {
  /** As users type it: `plugin:name`. */
  name: string;
  file: string;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Claude's model aliases mean "the session's model" here (Islet has no such names). */
const CLAUDE_MODEL_ALIASES = new Set(["inherit", "sonnet", "opus", "haiku"]);
const sessionModel = (m: string | undefined) => (m && CLAUDE_MODEL_ALIASES.has(m) ? undefined : m);

/** Runs `load` on each folder and `one` on each file of `paths`, gathering what they found. */
function gather<T>(
  paths: readonly string[],
  load: (dir: string) => Loaded<T>,
  one: (file: string) => { item: T; warnings: Problem[] },
): Loaded<T> {
  const out: Loaded<T> = { items: [], errors: [], warnings: [] };
  for (const p of paths) {
    if (isFile(p)) {
      try {
        const { item, warnings } = one(p);
        out.items.push(item);
        out.warnings.push(...warnings);
      } catch (err) {
        out.errors.push(fileProblem(err, p));
      }
      continue;
    }
    const found = load(p);
    out.items.push(...found.items);
    out.errors.push(...found.errors);
    out.warnings.push(...found.warnings);
  }
  return out;
}

export function pluginCommands(
  paths: readonly string[],
  namespace: string,
): Loaded<MarkdownCommand> {
  const found = gather(
    paths,
    (dir) => loadCommands(dir, { namespace }),
    (file) => {
      const { command, warnings } = parseCommandFile(file, readFileSync(file, "utf8"), {
        namespace,
      });
      return { item: command, warnings };
    },
  );
  return { ...found, items: found.items.map((c) => ({ ...c, model: sessionModel(c.model) })) };
}

/**
 * `skills/NAME/SKILL.md` and `skills/NAME.md` of each folder; a listed file is one skill, and so
 * is a listed folder holding SKILL.md (marketplaces list skills that way).
 */
export function pluginSkills(paths: readonly string[], namespace: string): Loaded<Skill> {
  const found = gather(
    paths,
    (dir) => {
      const file = path.join(dir, "SKILL.md");
      if (!isFile(file)) return loadSkills(dir, { namespace });
      try {
        const { skill, warnings } = loadSkill(file, { namespace });
        return { items: [skill], errors: [], warnings };
      } catch (err) {
        return { items: [], errors: [fileProblem(err, file)], warnings: [] };
      }
    },
    (file) => {
      const { skill, warnings } = loadSkill(file, { namespace });
      return { item: skill, warnings };
    },
  );
  // A listed skill folder may sit in the default skills/ too: it is one skill.
  const seen = new Set<string>();
  const items = found.items.filter((s) => !seen.has(s.name) && seen.add(s.name));
  return { ...found, items: items.map((s) => ({ ...s, model: sessionModel(s.model) })) };
}

export function pluginAgents(paths: readonly string[], namespace: string): Loaded<AgentConfig> {
  const found = gather(
    paths,
    (dir) => loadAgents(dir, { namespace }),
    (file) => {
      const { agent, warnings } = readAgentFile(file, readFileSync(file, "utf8"), { namespace });
      return { item: agent, warnings };
    },
  );
  return { ...found, items: found.items.map((a) => ({ ...a, model: sessionModel(a.model) })) };
}

/** `*.md` under `dir`, sub-folders included (a sub-folder changes only the label, as in Claude). */
function markdownFiles(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return isFile(dir) && /\.md$/i.test(dir) ? [dir] : [];
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

/** Output styles (`output-styles/*.md`): listed here, chosen with `/output-style` (output-styles/). */
export function pluginOutputStyles(paths: readonly string[], namespace: string): Loaded<NamedFile> {
  const items = paths.flatMap(markdownFiles).map((file) => ({
    name: `${namespace}:${path.basename(file).replace(/\.md$/i, "")}`,
    file,
  }));
  return { items, errors: [], warnings: [] };
}

/**
 * The plugin's `.mcp.json` and its manifest's `mcpServers` (as written: a `./path`, a list of
 * them, or inline servers), `${CLAUDE_PLUGIN_ROOT}` expanded, named `plugin_<plugin>_<server>`.
 */
export function pluginMcp(
  root: string,
  plugin: string,
  manifest: unknown,
  env?: Record<string, string | undefined>,
): Loaded<McpServerSpec> {
  const { servers, problems } = pluginMcpServers(root, plugin, { manifest, env });
  return { items: servers, errors: problems, warnings: [] };
}
