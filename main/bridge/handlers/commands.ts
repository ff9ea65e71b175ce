/** `commands/*`: the slash commands for the composer's autocomplete. */
import type { SlashCommand } from "../../commands/types.ts";
import type { HomeMarkdownFolder } from "../../extensions/markdown/home-source.ts";
import type { CommandEntry } from "../schemas/commands.ts";
import type { CallHandlers } from "../service.ts";

/** What the command list asks of the engine. */
export interface CommandsPort {
  /** The commands serving now. */
  commands(): SlashCommand[];
  /** The commands of plugins that failed to load (none with plugins off). */
  failedCommands(): { name: string; plugin: string; error: string }[];
  /** The homes' commands, skills and agents folders, held-back ones too. */
  markdownFolders(): readonly HomeMarkdownFolder[];
  /** Why a held-back project's `what` does not serve. */
  heldBackReason(what: string): string;
}

export function commandHandlers(port: CommandsPort): Pick<CallHandlers, "commands/list"> {
  return {
    "commands/list": () => ({ commands: listCommands(port) }),
  };
}

/**
 * Every serving command, then those of plugins that failed to load (status "failed") and those of
 * an untrusted project (status "held-back"), by name.
 */
export function listCommands(port: CommandsPort): CommandEntry[] {
  const serving: CommandEntry[] = port.commands().map((c) => ({
    name: c.name,
    description: c.description,
    hints: c.hints ?? null,
    source: c.plugin ?? c.source,
    kind: c.kind ?? "command",
    status: "ok",
    error: null,
  }));
  const taken = new Set(serving.map((c) => c.name));
  const failed: CommandEntry[] = port
    .failedCommands()
    .filter((c) => !taken.has(c.name))
    .map((c) => ({
      name: c.name,
      description: `${c.plugin} failed to load`,
      hints: null,
      source: c.plugin,
      kind: "command",
      status: "failed",
      error: c.error,
    }));
  for (const c of failed) taken.add(c.name);
  const heldBack: CommandEntry[] = port
    .markdownFolders()
    .filter((f) => f.status === "held-back")
    .flatMap((f) => [
      ...f.commands.map((name) => ({ name, kind: "command" as const })),
      ...f.skills.map((name) => ({ name, kind: "skill" as const })),
    ])
    .filter((c) => !taken.has(c.name))
    .map((c) => ({
      ...c,
      description: "held back: this folder is not trusted",
      hints: null,
      source: "project",
      status: "held-back",
      error: port.heldBackReason(`/${c.name}`),
    }));
  return [...serving, ...failed, ...heldBack].sort((a, b) => a.name.localeCompare(b.name));
}
