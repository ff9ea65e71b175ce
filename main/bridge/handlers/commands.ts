/** `commands/*`: the slash commands for the composer's autocomplete. */
import type { Engine } from "../../engine/engine.ts";
import type { CommandEntry } from "../schemas/commands.ts";
import type { CallHandlers } from "../service.ts";

export function commandHandlers(engine: Engine): Pick<CallHandlers, "commands/list"> {
  return {
    "commands/list": () => ({ commands: listCommands(engine) }),
  };
}

/**
 * Every serving command, then those of plugins that failed to load (status "failed") and those of
 * an untrusted project (status "held-back"), by name.
 */
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
  for (const c of failed) taken.add(c.name);
  const heldBack: CommandEntry[] = engine.homeMarkdown.folders
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
      error: engine.homeMarkdown.heldBackReason(`/${c.name}`),
    }));
  return [...serving, ...failed, ...heldBack].sort((a, b) => a.name.localeCompare(b.name));
}
