/**
 * The plugin browser's rows for file-based extensions beside code plugins: the user's shell hook
 * files and Claude Code plugins, each with where it comes from, what it brings and what went wrong.
 */
import { z } from "zod";

export const ShellHookItem = z.strictObject({
  event: z.string(),
  matcher: z.string(),
  command: z.string(),
  timeoutS: z.number(),
  /** False for events Islet does not fire yet (listed so they never fail silently). */
  fires: z.boolean(),
});

/** One part of a Claude Code plugin and its state (main/extensions/claude/component-states.ts). */
export const ExtensionComponent = z.strictObject({
  kind: z.enum(["command", "skill", "agent", "hook", "mcp-server", "output-style", "lsp-server"]),
  name: z.string(),
  state: z.enum(["loaded", "held-back", "excluded", "shadowed", "failed", "unsupported"]),
  /** Why it is not loaded (one line). */
  why: z.string().optional(),
});
export type ExtensionComponent = z.infer<typeof ExtensionComponent>;

export const ExtensionEntry = z.strictObject({
  /** markdown: a home's commands, skills and agents (config/commands, skills, config/agents). */
  kind: z.enum(["shell-hooks", "claude-plugin", "markdown"]),
  /** A hook file's name, the plugin's name, or the home's markdown folders. */
  name: z.string(),
  description: z.string(),
  source: z.enum(["global", "project"]),
  /** The hook file, the plugin's folder, or the home. */
  path: z.string(),
  /**
   * held-back: an untrusted project's, whose hooks and commands do not run. shadowed: a Claude
   * Code plugin another of its name stands in for (another marketplace's copy).
   */
  status: z.enum(["active", "held-back", "excluded", "shadowed", "failed"]),
  /** Where the plugin that loads instead of a shadowed one is ("pack claude-code"). */
  shadowedBy: z.string().optional(),
  hooks: z.array(ShellHookItem),
  commands: z.array(z.string()),
  skills: z.array(z.string()),
  agents: z.array(z.string()),
  mcpServers: z.array(z.string()),
  outputStyles: z.array(z.string()),
  /** A Claude Code plugin's every part with its state (the others list names only). */
  components: z.array(ExtensionComponent).optional(),
  /** One line each, naming file and field. */
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
});
export type ExtensionEntry = z.infer<typeof ExtensionEntry>;
