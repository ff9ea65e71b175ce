/** Shell hook files and Claude Code plugins as the plugin browser and `islet plugins list` show them. */
import path from "node:path";
import type { ExtensionEntry } from "../bridge/schemas/extensions.ts";
import type { ClaudePlugin } from "./claude/plugin.ts";
import type { DeclarativeExtensions } from "./declarative.ts";
import type { ShellHookSpec } from "./shell-hooks/config.ts";
import { UNWIRED_EVENTS } from "./shell-hooks/event-input.ts";
import type { ShellHookFile } from "./shell-hooks/source.ts";

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
    errors: f.errors,
    warnings: f.warnings,
  };
}

function claudeEntry(p: ClaudePlugin): ExtensionEntry {
  return {
    kind: "claude-plugin",
    name: p.name,
    description: p.manifest.description ?? "",
    source: p.scope,
    path: p.dir,
    status: p.status === "excluded" ? "excluded" : p.heldBack ? "held-back" : "active",
    hooks: hookItems(p.hooks),
    commands: p.commands.map((c) => c.name),
    skills: p.skills.map((s) => s.name),
    agents: p.agents.map((a) => a.name),
    mcpServers: p.mcpServers.map((m) => m.name),
    outputStyles: p.outputStyles.map((s) => s.name),
    errors: p.errors,
    warnings: p.warnings,
  };
}

export function listExtensions(d: DeclarativeExtensions): ExtensionEntry[] {
  return [
    ...d.shellHooks.files.map(hookFileEntry),
    ...(d.claudePlugins?.plugins ?? []).map(claudeEntry),
  ];
}
