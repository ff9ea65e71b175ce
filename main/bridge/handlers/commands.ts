/** `commands/*`: the slash commands for the composer's autocomplete. */
import type { Engine } from "../../engine/engine.ts";
import type { CommandEntry } from "../schemas/commands.ts";
import type { CallHandlers } from "../service.ts";

export function commandHandlers(engine: Engine): Pick<CallHandlers, "commands/list"> {
  return {
    "commands/list": () => ({ commands: listCommands(engine) }),
  };
}

/** Every serving command, then those of plugins that failed to load (status "failed"), by name. */
export function listCommands(engine: Engine): CommandEntry[] {
  const serving: CommandEntry[] = engine.commands.list().map((c) => ({
    name: c.name,
    description: c.description,
    hints: c.hints ?? null,
    source: c.plugin ?? c.source,
    kind: c.kind ?? "command",
    status: "ok",
    error: null,
  }));
  const taken = new Set(serving.map((c) => c.name));
  const failed: CommandEntry[] = (engine.plugins?.failedCommands() ?? [])
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
  return [...serving, ...failed].sort((a, b) => a.name.localeCompare(b.name));
}
