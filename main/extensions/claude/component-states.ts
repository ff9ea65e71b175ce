/**
 * Every part of a Claude Code plugin with its state, for `islet plugins show` and the plugin
 * browser: loaded, held back (an untrusted project's hooks and MCP servers) or excluded, failed
 * (a broken file, a server that could not start) with why, unsupported (hook events Islet does
 * not fire yet). A language server is loaded when it can start on demand.
 */
import path from "node:path";
import type { Problem } from "../../host/problem.ts";
import { UNWIRED_EVENTS } from "../shell-hooks/event-input.ts";
import type { ClaudePlugin } from "./plugin.ts";

export type ComponentKind =
  "command" | "skill" | "agent" | "hook" | "mcp-server" | "output-style" | "lsp-server";

export type ComponentState =
  "loaded" | "held-back" | "excluded" | "shadowed" | "failed" | "unsupported";

/** A Claude Code plugin's state as a whole, for its card and `islet plugins list`. */
export type ClaudePluginStatus = "active" | "held-back" | "excluded" | "shadowed";

export function claudePluginStatus(p: ClaudePlugin): ClaudePluginStatus {
  if (p.status !== "enabled") return p.status;
  return p.heldBack ? "held-back" : "active";
}

export interface PluginComponent {
  kind: ComponentKind;
  /** As the user meets it: `/plugin:cmd`, `plugin:skill`, `PreToolUse Bash`, a server's name. */
  name: string;
  state: ComponentState;
  /** Why it is not loaded (one line). */
  why?: string;
}

/** A running MCP server's state, when known (the engine's MCP manager). */
export type McpState = (name: string) => { status: string; error?: string } | undefined;

export const COMPONENT_KINDS: readonly ComponentKind[] = [
  "command",
  "skill",
  "agent",
  "hook",
  "mcp-server",
  "output-style",
  "lsp-server",
];

export function pluginComponents(p: ClaudePlugin, mcpState?: McpState): PluginComponent[] {
  // Not loaded at all: every part says why, whatever else holds.
  const excluded = p.status !== "enabled";
  const base = (): Pick<PluginComponent, "state" | "why"> =>
    p.status === "excluded"
      ? { state: "excluded", why: "left out by include/exclude in features/plugins.yaml" }
      : p.status === "shadowed"
        ? { state: "shadowed", why: `the copy in ${p.shadowedBy?.where ?? "another folder"} loads` }
        : { state: "loaded" };
  const heldBack = (): Pick<PluginComponent, "state" | "why"> =>
    p.heldBack && !excluded
      ? { state: "held-back", why: "this project's folder is not trusted: it does not run" }
      : base();
  const out: PluginComponent[] = [
    ...p.commands.map((c) => ({ kind: "command" as const, name: `/${c.name}`, ...base() })),
    ...p.skills.map((s) => ({ kind: "skill" as const, name: s.name, ...base() })),
    ...p.agents.map((a) => ({ kind: "agent" as const, name: a.name, ...base() })),
    ...p.hooks.map((h) => ({
      kind: "hook" as const,
      name: `${h.event}${h.matcher ? ` ${h.matcher}` : ""}: ${h.command}`,
      ...(UNWIRED_EVENTS.includes(h.event) && !p.heldBack && !excluded
        ? { state: "unsupported" as const, why: `Islet does not fire ${h.event} yet` }
        : heldBack()),
    })),
    ...p.mcpServers.map((m) => {
      const running = mcpState?.(m.name);
      const failed = running && (running.status === "failed" || running.status === "restarting");
      return {
        kind: "mcp-server" as const,
        name: m.name,
        ...(failed && !p.heldBack && !excluded
          ? { state: "failed" as const, why: running.error ?? running.status }
          : heldBack()),
      };
    }),
    ...p.outputStyles.map((s) => ({ kind: "output-style" as const, name: s.name, ...base() })),
    ...p.lspServers.map((s) => ({
      kind: "lsp-server" as const,
      name: s.command ? `${s.name} (${path.basename(s.command)})` : s.name,
      ...(s.unusable
        ? { state: "failed" as const, why: `${s.unusable}; not started` }
        : heldBack()),
    })),
  ];
  for (const problem of p.errors) {
    const failed = failedComponent(p, problem);
    if (failed) out.push(failed);
  }
  return out;
}

/** A broken file as the part it would have been (its folder says which), with its one line. */
function failedComponent(p: ClaudePlugin, problem: Problem): PluginComponent | null {
  if (!problem.file) return null;
  const rel = path.relative(p.dir, problem.file).split(path.sep);
  const stem = path.basename(problem.file).replace(/\.(md|json)$/i, "");
  const why = problem.title;
  const top = rel[0];
  if (top === "commands" || p.manifest.commands?.some((c) => problem.file!.startsWith(c)))
    return { kind: "command", name: `/${p.name}:${stem}`, state: "failed", why };
  if (top === "skills" || rel.at(-1) === "SKILL.md")
    return {
      kind: "skill",
      name: `${p.name}:${rel.at(-1) === "SKILL.md" && rel.length > 1 ? rel.at(-2) : stem}`,
      state: "failed",
      why,
    };
  if (top === "agents" || p.manifest.agents?.some((a) => problem.file!.startsWith(a)))
    return { kind: "agent", name: `${p.name}:${stem}`, state: "failed", why };
  if (problem.source === "shell-hooks" || top === "hooks")
    return { kind: "hook", name: rel.join("/"), state: "failed", why };
  if (problem.source === "mcp" || top === ".mcp.json")
    return { kind: "mcp-server", name: rel.join("/"), state: "failed", why };
  return null;
}

/** One line per part, grouped by kind, for `islet plugins show`. */
export function componentLines(components: readonly PluginComponent[]): string[] {
  const label: Record<ComponentKind, string> = {
    command: "Commands",
    skill: "Skills",
    agent: "Agents",
    hook: "Hooks",
    "mcp-server": "MCP servers",
    "output-style": "Output styles",
    "lsp-server": "LSP servers",
  };
  const lines: string[] = [];
  for (const kind of COMPONENT_KINDS) {
    const of = components.filter((c) => c.kind === kind);
    if (of.length === 0) continue;
    lines.push(`${label[kind]}:`);
    for (const c of of)
      lines.push(`  ${c.name}  ${c.state}${c.why ? ` — ${c.why.split("\n")[0]}` : ""}`);
  }
  return lines;
}
