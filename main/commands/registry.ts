/** Commands by name with the priority built-in > custom > plugin. */
import type { CommandSource, SlashCommand } from "./types.ts";

const RANK: Record<CommandSource, number> = { builtin: 0, custom: 1, plugin: 2 };

export class CommandRegistry {
  private readonly byName = new Map<string, SlashCommand>();

  /** Returns the command now serving the name (a lower-priority newcomer loses). */
  register(command: SlashCommand): SlashCommand {
    const current = this.byName.get(command.name);
    if (!current || RANK[command.source] < RANK[current.source])
      this.byName.set(command.name, command);
    return this.byName.get(command.name)!;
  }

  unregister(name: string, source: CommandSource): void {
    if (this.byName.get(name)?.source === source) this.byName.delete(name);
  }

  get(name: string): SlashCommand | undefined {
    return this.byName.get(name);
  }

  list(): SlashCommand[] {
    return [...this.byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
