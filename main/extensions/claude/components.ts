/**
 * A Claude Code plugin's parts through the loaders every other source uses: commands and skills
 * (main/extensions/markdown), agents (main/agents/load.ts), MCP servers (main/mcp), each named
 * `plugin:name` (MCP: `plugin_<plugin>_<server>`). A manifest path may name a folder or one file.
 */
import { readdirSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import type { AgentConfig } from "../../agents/definition.ts";
import { indexedAgentFile, readAgentFile } from "../../agents/load.ts";
import { markdownFiles as agentFiles } from "../../config/markdown-walk.ts";
import type { McpServerSpec } from "../../mcp/config.ts";
import { pluginMcpServers } from "../../mcp/plugin-servers.ts";
import { loadCommands, readCommandFile, type MarkdownCommand } from "../markdown/commands.ts";
import { fileProblem, frontmatterBlock, type Loaded } from "../../config/frontmatter-fields.ts";
import type { Problem } from "../../host/problem.ts";
import { loadSkill, loadSkills, type Skill } from "../markdown/skills.ts";

export type Found<T> = Loaded<T>;

export interface NamedFile {
  /** As users type it: `plugin:name`. */
  name: string;
  file: string;
}

/**
 * What is at `p`, without an exception for nothing (most plugins lack most of the folders, and
 * hundreds of thrown errors were a noticeable part of a start).
 */
function kindOf(p: string): "file" | "folder" | "other" | null {
  try {
    const st = statSync(p, { throwIfNoEntry: false });
    return !st ? null : st.isFile() ? "file" : st.isDirectory() ? "folder" : "other";
  } catch {
    return null;
  }
}

const isFile = (p: string): boolean => kindOf(p) === "file";

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
    const kind = kindOf(p);
    // Nothing there: nothing to load (a listed path that is missing was warned about).
    if (kind === null) continue;
    if (kind === "file") {
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
      const { command, warnings } = readCommandFile(file, { namespace });
      return { item: command, warnings };
    },
  );
  for (const c of found.items) c.model = sessionModel(c.model);
  return found;
}

/**
 * `skills/NAME/SKILL.md` and `skills/NAME.md` of each folder; a listed file, or a listed folder
 * holding a SKILL.md, is one skill. A skill reached twice (a manifest listing `./skills/x` beside
 * the default `skills/`, as marketplace entries do) loads once.
 */
export function pluginSkills(paths: readonly string[], namespace: string): Loaded<Skill> {
  const one = (file: string) => {
    const { skill, warnings } = loadSkill(file, { namespace });
    return { item: skill, warnings };
  };
  const found = gather(
    paths,
    (dir) => {
      const own = path.join(dir, "SKILL.md");
      if (!isFile(own)) return loadSkills(dir, { namespace });
      try {
        const { item, warnings } = one(own);
        return { items: [item], errors: [], warnings };
      } catch (err) {
        return { items: [], errors: [fileProblem(err, own)], warnings: [] };
      }
    },
    one,
  );
  const seen = new Set<string>();
  const items = found.items.filter((s) => {
    const key = path.resolve(s.file);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  for (const s of items) s.model = sessionModel(s.model);
  return {
    items,
    errors: once(found.errors),
    warnings: once(found.warnings),
  };
}

/** A file read twice reports its problems once. */
function once(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file ?? ""}\n${p.title}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function pluginAgents(paths: readonly string[], namespace: string): Loaded<AgentConfig> {
  const found = gather(
    paths,
    (dir) => {
      const out: Loaded<AgentConfig> = { items: [], errors: [], warnings: [] };
      for (const { file } of agentFiles(dir, 0)) {
        try {
          const { item, warnings } = lenientAgent(file, namespace);
          out.items.push(item);
          out.warnings.push(...warnings);
        } catch (err) {
          out.errors.push(fileProblem(err, file));
        }
      }
      return out;
    },
    (file) => lenientAgent(file, namespace),
  );
  for (const a of found.items) a.model = sessionModel(a.model);
  return found;
}

/**
 * As Claude Code: an agent whose frontmatter cannot be read still loads, under its file name with
 * its body as prompt, and the problem is one warning instead of the file being skipped.
 */
function lenientAgent(file: string, namespace: string): { item: AgentConfig; warnings: Problem[] } {
  const parse = (text: string) => lenientRead(file, text, namespace);
  const { agent, warnings } = indexedAgentFile(file, { namespace }, "agent-lenient", parse);
  return { item: agent, warnings };
}

function lenientRead(
  file: string,
  text: string,
  namespace: string,
): { agent: AgentConfig; warnings: Problem[] } {
  try {
    return readAgentFile(file, text, { namespace });
  } catch (err) {
    const problem = fileProblem(err, file);
    const block = frontmatterBlock(text);
    const { agent } = readAgentFile(file, block ? text.slice(block[0].length) : text, {
      namespace,
    });
    const name = path.basename(file).replace(/\.md$/i, "");
    return {
      agent,
      warnings: [{ ...problem, title: `${problem.title}; loaded as "${name}" without its fields` }],
    };
  }
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
  const present = paths.filter((p) => kindOf(p) !== null);
  const items = present.flatMap(markdownFiles).map((file) => ({
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
