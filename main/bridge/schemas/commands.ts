/** `commands/*`: the slash commands the composer offers (built-in, custom, skills, plugin ones). */
import { z } from "zod";

export const CommandEntry = z.strictObject({
  /** Without the leading "/". */
  name: z.string(),
  description: z.string(),
  /** Ghost text after the name, e.g. "[agent name]"; null when none. */
  hints: z.string().nullable(),
  /** "builtin", "custom", or the plugin's name. */
  source: z.string(),
  /** A skill runs as a command too (`/NAME args`); the composer marks it. */
  kind: z.enum(["command", "skill"]),
  /**
   * "failed": its plugin did not load (the command is remembered from its last good load).
   * "held-back": an untrusted project's (`.islet/`): listed, not run until the folder is trusted.
   */
  status: z.enum(["ok", "failed", "held-back"]),
  /** Why it does not run (one line); null when ok. */
  error: z.string().nullable(),
});
export type CommandEntry = z.infer<typeof CommandEntry>;

export const CommandList = z.strictObject({ commands: z.array(CommandEntry) });
export type CommandList = z.infer<typeof CommandList>;
