/**
 * `/plugin list`, `/plugin activate NAME`, `/plugin deactivate NAME`: the user's side of on-demand
 * activation (the model's is activate_plugin). Activating still shows the consent details.
 */
import type { SlashCommand } from "../../commands/types.ts";
import type { ActivationEntry } from "./activatable.ts";
import type { ActivationRegistry } from "./registry.ts";

const USAGE = "usage: /plugin list | /plugin activate NAME | /plugin deactivate NAME";

function row(e: ActivationEntry): string {
  const status = e.reason ? `${e.status}: ${e.reason}` : e.status;
  return `${e.name} (${e.kind}, ${status})${e.description ? ` — ${e.description}` : ""}`;
}

export function pluginActivationCommand(registry: ActivationRegistry): SlashCommand {
  return {
    name: "plugin",
    description: "List on-demand plugins, or activate or deactivate one.",
    hints: "list | activate NAME | deactivate NAME",
    source: "builtin",
    async run(args, env) {
      const [verb = "list", name, ...rest] = args.split(/\s+/).filter(Boolean);
      if (verb === "list" && !name) {
        await registry.refresh();
        const rows = registry.list().map(row);
        return { output: rows.length ? rows.join("\n") : "No on-demand plugins were found." };
      }
      if (!name || rest.length > 0) return { output: USAGE };
      if (verb === "activate") {
        const outcome = await registry.activate(name, {
          by: "user",
          reason: "you asked to activate it (/plugin activate)",
          questions: env.questions,
        });
        return { output: outcome.line };
      }
      if (verb === "deactivate") {
        const was = await registry.deactivate(name);
        return { output: was ? `${name} is inactive now.` : `${name} was not active.` };
      }
      return { output: USAGE };
    },
  };
}
