/**
 * Commands by name with the priority built-in > custom > plugin. Each name keeps every command
 * registered for it: the highest priority serves (the latest within one priority), and when the
 * serving one is disposed the one it shadowed serves again. Below them all, the bare names of
 * namespaced commands (`/deploy` for `/ops:deploy`): such an alias serves only while it is the
 * only command of its name; two plugins' aliases of one name answer with both full names.
 */
import { LayeredRegistry, type Registration } from "../lifecycle/layered.ts";
import type { CommandSource, SlashCommand } from "./types.ts";

const PRIORITY: Record<CommandSource, number> = { builtin: 2, custom: 1, plugin: 0 };
const ALIAS = -1;

export class CommandRegistry {
  private readonly layers = new LayeredRegistry<SlashCommand>();
  /** Grows at every change: listings built from the commands rebuild only when it moved. */
  version = 0;

  /** `serving()` on the result says whether this command serves or which one shadows it. */
  register(command: SlashCommand): Registration<SlashCommand> {
    this.version++;
    const added = this.layers.add(
      command.name,
      command,
      command.aliasOf ? ALIAS : PRIORITY[command.source],
    );
    let gone = false;
    return {
      value: added.value,
      serving: () => added.serving(),
      dispose: () => {
        if (!gone) this.version++;
        gone = true;
        added.dispose();
      },
    };
  }

  get(name: string): SlashCommand | undefined {
    const top = this.layers.get(name);
    if (!top?.aliasOf) return top;
    const owners = this.layers.contributions(name).filter((c) => c.aliasOf);
    return owners.length === 1 ? top : ambiguous(name, owners);
  }

  /** Serving commands by name; aliases are left out (their namespaced names are listed). */
  list(): SlashCommand[] {
    return this.layers
      .values()
      .filter((c) => !c.aliasOf)
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}

function ambiguous(name: string, owners: readonly SlashCommand[]): SlashCommand {
  const full = owners.map((c) => `/${c.aliasOf}`);
  return {
    name,
    description: `ambiguous: ${full.join(", ")}`,
    source: "plugin",
    aliasOf: owners[0].aliasOf,
    async run() {
      throw new Error(`/${name} is ambiguous: several plugins have it; type ${full.join(" or ")}`);
    },
  };
}
