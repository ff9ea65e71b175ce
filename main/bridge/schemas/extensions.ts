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

export const ExtensionEntry = z.strictObject({
  kind: z.enum(["shell-hooks", "claude-plugin"]),
  /** A hook file's name, or the plugin's name. */
  name: z.string(),
  description: z.string(),
  source: z.enum(["global", "project"]),
  /** The hook file, or the plugin's folder. */
  path: z.string(),
  /** held-back: an untrusted project's, whose commands do not run. */
  status: z.enum(["active", "held-back", "excluded", "failed"]),
  hooks: z.array(ShellHookItem),
  commands: z.array(z.string()),
  skills: z.array(z.string()),
  agents: z.array(z.string()),
  mcpServers: z.array(z.string()),
  outputStyles: z.array(z.string()),
  /** One line each, naming file and field. */
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
});
export type ExtensionEntry = z.infer<typeof ExtensionEntry>;
