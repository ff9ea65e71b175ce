/**
 * Shell hook files, Claude Code plugins and the homes' commands, skills and agents as the plugin
 * browser and `islet plugins list` show them.
 */
import path from "node:path";
import type { ExtensionEntry } from "../schemas/extensions.ts";
import type { ClaudePlugin } from "../../extensions/claude/plugin.ts";
import {
  claudePluginStatus,
  pluginComponents,
  type McpState,
} from "../../extensions/claude/component-states.ts";
import type { DeclarativeExtensions } from "../../extensions/declarative.ts";
import type { HomeMarkdownFolder } from "../../extensions/markdown/home-source.ts";
import { formatProblem } from "../../host/problem.ts";
import type { ShellHookSpec } from "../../extensions/shell-hooks/config.ts";
import { UNWIRED_EVENTS } from "../../extensions/shell-hooks/event-input.ts";
import type { ShellHookFile } from "../../extensions/shell-hooks/source.ts";

function hookItems(hooks: readonly ShellHookSpec[]): ExtensionEntry["hooks"] {
  return hooks.map((h) => ({
    event: h.event,
    matcher: h.matcher,
    command: h.command,
    timeoutS: h.timeoutS,
    fires: !UNWIRED_EVENTS.includes(h.event),
  }));
}

function hookFileEntry(f: ShellHookFile): ExtensionEntry {
  return {
    kind: "shell-hooks",
    name: path.basename(f.file),
    description: `Shell hooks (${f.hooks.length} command${f.hooks.length === 1 ? "" : "s"})`,
    source: f.scope,
    path: f.file,
    status: f.hooks.length === 0 && f.errors.length > 0 ? "failed" : "active",
    hooks: hookItems(f.hooks),
    commands: [],
    skills: [],
    agents: [],
    mcpServers: [],
    outputStyles: [],
    errors: f.errors.map(formatProblem),
    warnings: f.warnings.map(formatProblem),
  };
}

function claudeEntry(p: ClaudePlugin, mcpState?: McpState): ExtensionEntry {
  return {
    kind: "claude-plugin",
    name: p.name,
    description: p.manifest.description ?? "",
    source: p.scope,
    path: p.dir,
    status: claudePluginStatus(p),
    ...(p.shadowedBy ? { shadowedBy: p.shadowedBy.where } : {}),
    hooks: hookItems(p.hooks),
    commands: p.commands.map((c) => c.name),
    skills: p.skills.map((s) => s.name),
    agents: p.agents.map((a) => a.name),
    mcpServers: p.mcpServers.map((m) => m.name),
    outputStyles: p.outputStyles.map((s) => s.name),
    components: pluginComponents(p, mcpState),
    errors: p.errors.map(formatProblem),
    warnings: p.warnings.map(formatProblem),
  };
}

function markdownEntry(f: HomeMarkdownFolder): ExtensionEntry {
  const count = f.commands.length + f.skills.length + f.agents.length;
  return {
    kind: "markdown",
    name:
      f.scope === "global"
        ? "Global commands, skills and agents"
        : "Project commands, skills and agents",
    description: `${count} file${count === 1 ? "" : "s"} from config/commands, skills and config/agents`,
    source: f.scope,
    path: f.home,
    status: f.status,
    hooks: [],
    commands: f.commands,
    skills: f.skills,
    agents: f.agents,
    mcpServers: [],
    outputStyles: [],
    errors: f.errors.map(formatProblem),
    warnings: f.warnings.map(formatProblem),
  };
}

/**
 * `markdown`: the homes' folders (homes with none of these files are left out); `mcpState`: the
 * running MCP servers, so a Claude plugin's server that could not start shows as failed.
 */
export function listExtensions(
  d: DeclarativeExtensions,
  markdown: readonly HomeMarkdownFolder[] = [],
  mcpState?: McpState,
): ExtensionEntry[] {
  return [
    ...markdown
      .filter((f) => f.commands.length + f.skills.length + f.agents.length + f.errors.length > 0)
      .map(markdownEntry),
    ...d.shellHooks.files.map(hookFileEntry),
    ...(d.claudePlugins?.plugins ?? []).map((p) => claudeEntry(p, mcpState)),
  ];
}
