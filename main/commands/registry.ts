/**
 * Commands by name with the priority built-in > custom > plugin. Each name keeps every command
 * registered for it: the highest priority serves (the latest within one priority), and when the
 * serving one is disposed the one it shadowed serves again.
 */
import { LayeredRegistry, type Registration } from "../extensions/layered.ts";
import type { CommandSource, SlashCommand } from "./types.ts";

const PRIORITY: Record<CommandSource, number> = { builtin: 2, custom: 1, plugin: 0 };

export class CommandRegistry {
  private readonly layers = new LayeredRegistry<SlashCommand>();

  /** `serving()` on the result says whether this command serves or which one shadows it. */
  register(command: SlashCommand): Registration<SlashCommand> {
    return this.layers.add(command.name, command, PRIORITY[command.source]);
  }

  get(name: string): SlashCommand | undefined {
    return this.layers.get(name);
  }

  list(): SlashCommand[] {
    return this.layers.values().sort((a, b) => a.name.localeCompare(b.name));
  }
}
