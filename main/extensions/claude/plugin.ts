/**
 * One Claude Code plugin folder read whole and leniently: the manifest, then each part from its
 * default folder (or the manifest's paths). A broken file costs only itself, in one line.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AgentConfig } from "../../agents/definition.ts";
import type { McpServerSpec } from "../../mcp/config.ts";
import type { HomeSource } from "../../code-plugins/loader/features.ts";
import {
  hookProblem,
  parseHooksFile,
  readHooksData,
  type ShellHookSpec,
} from "../shell-hooks/config.ts";
import { fileProblem } from "../../config/frontmatter-fields.ts";
import type { Problem } from "../../host/problem.ts";
import type { MarkdownCommand } from "../markdown/commands.ts";
import { loadSkill, type Skill } from "../markdown/skills.ts";
import { unwiredWarnings } from "../shell-hooks/source.ts";
import {
  pluginAgents,
  pluginCommands,
  pluginMcp,
  pluginOutputStyles,
  pluginSkills,
  type Found,
  type NamedFile,
} from "./components.ts";
import { pluginLspServers, type LspServerEntry } from "./lsp.ts";
import { readClaudeManifest, type ClaudeManifest, type MarketEntry } from "./manifest.ts";

export interface ClaudePlugin {
  name: string;
  dir: string;
  scope: HomeSource;
  /** shadowed: a plugin of the same name loads instead (same-name.ts). */
  status: "enabled" | "excluded" | "shadowed";
  /** The plugin that loads under this name instead, when shadowed. */
  shadowedBy?: { dir: string; where: string };
  manifest: ClaudeManifest;
  /** Untrusted project: hooks and MCP servers are listed, not run. */
  heldBack: boolean;
  commands: MarkdownCommand[];
  skills: Skill[];
  agents: AgentConfig[];
  outputStyles: NamedFile[];
  /** Named `plugin_<plugin>_<server>`; `${CLAUDE_PLUGIN_ROOT}` expanded. */
  mcpServers: McpServerSpec[];
  hooks: ShellHookSpec[];
  /** Declared, not run (Islet has no language-server support yet). */
  lspServers: LspServerEntry[];
  errors: Problem[];
  warnings: Problem[];
}

export function readClaudePlugin(
  dir: string,
  opts: {
    scope: HomeSource;
    heldBack: boolean;
    env?: Record<string, string | undefined>;
    /** The marketplace entry that lists the folder (it may have no plugin.json). */
    market?: MarketEntry;
  },
): ClaudePlugin {
  const { manifest, errors, warnings } = readClaudeManifest(dir, opts.market);
  const ns = manifest.name;
  const plugin: ClaudePlugin = {
    name: ns,
    dir,
    scope: opts.scope,
    status: "enabled",
    manifest,
    heldBack: opts.heldBack,
    commands: [],
    skills: [],
    agents: [],
    outputStyles: [],
    mcpServers: [],
    hooks: [],
    lspServers: [],
    errors,
    warnings,
  };
  const take = <T>(found: Found<T>): T[] => {
    plugin.errors.push(...found.errors);
    plugin.warnings.push(...found.warnings);
    return found.items;
  };
  const at = (name: string) => path.join(dir, name);
  // One listing says which default parts the folder has: hundreds of plugins each lacking most
  // of them made a stat or a failed read each. Lower case: a false "there" only costs the look.
  const names = rootNames(dir);
  const has = (name: string) => names === null || names.has(name.toLowerCase());
  const ifThere = (name: string) => (has(name) ? [at(name)] : []);
  for (const field of ["commands", "skills", "agents", "outputStyles"] as const)
    for (const listed of manifest[field] ?? [])
      if (!existsSync(listed))
        plugin.warnings.push({
          source: "claude-plugins",
          file: listed,
          title: `listed in "${field}" but not there, skipped`,
        });
  plugin.commands = take(pluginCommands(manifest.commands ?? ifThere("commands"), ns));
  // `skills` adds to the default folder; a lone SKILL.md at the root is a one-skill plugin.
  const skillDirs = [...ifThere("skills"), ...(manifest.skills ?? [])];
  plugin.skills = take(pluginSkills(skillDirs, ns));
  if (has("SKILL.md") && existsSync(at("SKILL.md"))) {
    try {
      const { skill, warnings: w } = loadSkill(at("SKILL.md"));
      // Named in place: a spread would read the body an indexed skill reads on use.
      skill.name = ns;
      skill.bareName = ns;
      plugin.skills.push(skill);
      plugin.warnings.push(...w);
    } catch (err) {
      plugin.errors.push(fileProblem(err, at("SKILL.md")));
    }
  }
  plugin.agents = take(pluginAgents(manifest.agents ?? ifThere("agents"), ns));
  plugin.outputStyles = take(
    pluginOutputStyles(manifest.outputStyles ?? ifThere("output-styles"), ns),
  );

  plugin.mcpServers = take(pluginMcp(dir, ns, manifest.mcpServers, opts.env));
  const lsp = pluginLspServers(dir, manifest.lspServers);
  plugin.lspServers = lsp.servers;
  plugin.warnings.push(...lsp.problems);

  const defaultHooks = at(path.join("hooks", "hooks.json"));
  if (has("hooks")) plugin.hooks.push(...readHookFile(defaultHooks, plugin, false));
  manifest.hooks.forEach((entry, i) => {
    if (typeof entry !== "string") {
      const parsed = readHooksData(`${dir}/.claude-plugin/plugin.json hooks[${i}]`, entry);
      plugin.errors.push(...parsed.errors);
      plugin.warnings.push(...parsed.warnings);
      plugin.hooks.push(...parsed.hooks);
    } else if (path.resolve(entry) === path.resolve(defaultHooks)) {
      plugin.warnings.push({
        source: "claude-plugins",
        file: `${dir}/.claude-plugin/plugin.json`,
        title: 'field "hooks": hooks/hooks.json is always loaded; listing it again is ignored',
      });
    } else plugin.hooks.push(...readHookFile(entry, plugin, true));
  });
  plugin.warnings.push(...unwiredWarnings({ source: `${ns} hooks` }, plugin.hooks));
  return plugin;
}

/** The names in `dir`, lower case; null when it cannot be listed (then every part is looked for). */
function rootNames(dir: string): Set<string> | null {
  try {
    return new Set(readdirSync(dir).map((n) => n.toLowerCase()));
  } catch {
    return null;
  }
}

/** `named`: the manifest names it, so a missing file is an error (the default one is optional). */
function readHookFile(file: string, plugin: ClaudePlugin, named: boolean): ShellHookSpec[] {
  // Most plugins have none: no read (and no thrown error) for the default file that is not there.
  if (!named && !existsSync(file)) return [];
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (named || (err as NodeJS.ErrnoException).code !== "ENOENT")
      plugin.errors.push(
        hookProblem(file, `cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`),
      );
    return [];
  }
  const parsed = parseHooksFile(file, text);
  plugin.errors.push(...parsed.errors);
  plugin.warnings.push(...parsed.warnings);
  return parsed.hooks;
}
