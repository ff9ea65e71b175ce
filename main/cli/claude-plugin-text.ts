/**
 * `islet plugins show NAME` for a Claude Code plugin: every command, skill, agent, hook, MCP
 * server, output style and language server with its state (loaded, held back and why, failed and
 * why, unsupported), then its errors and warnings; `--json` the same as data. `plugins list` adds
 * one line per Claude plugin.
 */
import type { ClaudePlugin } from "../extensions/claude/plugin.ts";
import {
  claudePluginStatus,
  componentLines,
  pluginComponents,
  type McpState,
  type PluginComponent,
} from "../extensions/claude/component-states.ts";
import { formatProblem, type Problem } from "../host/problem.ts";
import type { InstalledPack } from "../packs/index.ts";
import { packOriginLines } from "./pack-origin-text.ts";

function statusOf(p: ClaudePlugin): string {
  if (p.status === "excluded") return "excluded (include/exclude in features/plugins.yaml)";
  if (p.status === "shadowed")
    return `not loaded: the plugin of the same name in ${p.shadowedBy?.where} (${p.shadowedBy?.dir}) loads`;
  if (p.heldBack)
    return "held back: this project's folder is not trusted, so its hooks and MCP servers do not run (`islet trust add`)";
  return "active";
}

export function claudePluginJson(
  p: ClaudePlugin,
  pack: InstalledPack | undefined,
  mcpState?: McpState,
): Record<string, unknown> {
  return {
    kind: "claude-plugin",
    name: p.name,
    description: p.manifest.description ?? "",
    version: p.manifest.version ?? null,
    status: claudePluginStatus(p),
    ...(p.shadowedBy ? { shadowedBy: p.shadowedBy.dir } : {}),
    source: p.scope,
    dir: p.dir,
    components: pluginComponents(p, mcpState),
    errors: p.errors.map(formatProblem),
    warnings: p.warnings.map(formatProblem),
    pack: pack ? { name: pack.name, dir: pack.dir, origin: pack.origin ?? null } : null,
  };
}

export function claudePluginText(
  p: ClaudePlugin,
  pack: InstalledPack | undefined,
  mcpState?: McpState,
  copies: readonly ClaudePlugin[] = [],
): string {
  const lines = [
    `Name:        ${p.name}`,
    `Kind:        Claude Code plugin`,
    `Description: ${p.manifest.description || "(none)"}`,
    ...(p.manifest.version ? [`Version:     ${p.manifest.version}`] : []),
    `Status:      ${statusOf(p)}`,
    `Source:      ${p.scope} (${p.dir})`,
    ...packOriginLines(pack),
    ...copies.map(
      (c) => `Also in:     ${c.dir} (${c.status === "shadowed" ? "not loaded" : statusOf(c)})`,
    ),
    ...componentLines(pluginComponents(p, mcpState)),
    ...p.errors.map((e) => `Error:       ${formatProblem(e)}`),
    ...p.warnings.map((w) => `Warning:     ${formatProblem(w)}`),
  ];
  return `${lines.join("\n")}\n`;
}

/** The "Claude Code plugins:" section of `plugins list`: each with its parts counted. */
export function claudePluginsText(
  plugins: readonly ClaudePlugin[],
  listNotes: readonly Problem[] = [],
): string {
  if (plugins.length === 0) return "";
  const width = Math.max(...plugins.map((p) => p.name.length));
  const rows = plugins.map((p) => {
    const parts = pluginComponents(p);
    const count = (kind: PluginComponent["kind"], one: string, many: string) => {
      const n = parts.filter((c) => c.kind === kind).length;
      return n === 0 ? [] : [`${n} ${n === 1 ? one : many}`];
    };
    const failed = parts.filter((c) => c.state === "failed").length;
    const summary = [
      ...count("command", "command", "commands"),
      ...count("skill", "skill", "skills"),
      ...count("agent", "agent", "agents"),
      ...count("hook", "hook", "hooks"),
      ...count("mcp-server", "MCP server", "MCP servers"),
      ...count("output-style", "output style", "output styles"),
      ...count("lsp-server", "LSP server", "LSP servers"),
      ...(failed > 0 ? [`${failed} failed`] : []),
      ...(p.warnings.length > 0
        ? [`${p.warnings.length} ${p.warnings.length === 1 ? "warning" : "warnings"}`]
        : []),
    ];
    const status = claudePluginStatus(p);
    return `  ${p.name.padEnd(width)}  ${status.padEnd(9)}  ${summary.join(", ") || "nothing"}`;
  });
  const notes = listNotes.map((n) => `  ${formatProblem(n)}\n`).join("");
  return `Claude Code plugins (\`islet plugins show NAME\` lists each part):\n${rows.join("\n")}\n${notes}`;
}
