/** A Markdown command as a slash command: its expanded body is the next turn's prompt. */
import type { CommandSource, SlashCommand } from "../../commands/types.ts";
import type { ContributionRegistrar } from "../../contributions/registrar.ts";
import type { MarkdownCommand } from "./commands.ts";
import { expandBody } from "./expand.ts";

export interface CommandOrigin {
  source: CommandSource;
  /** The plugin (or pack) it came from: its name also namespaces the command. */
  plugin?: string;
  /** `${VAR}` values: CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA… */
  vars?: Record<string, string>;
}

export function markdownSlashCommand(cmd: MarkdownCommand, origin: CommandOrigin): SlashCommand {
  const label = cmd.label ? ` (${cmd.label})` : "";
  return {
    name: cmd.name,
    description: `${cmd.description}${label}`,
    hints: cmd.argumentHint,
    source: origin.source,
    plugin: origin.plugin,
    kind: "command",
    async run(args, env) {
      const prompt = await expandBody(cmd.body, args, {
        workdir: env.workdir,
        shell: (line) => env.shell(line),
        vars: origin.vars,
      });
      return {
        output: prompt,
        forward: cmd.forward,
        preApproved: cmd.allowedTools,
        model: cmd.model,
      };
    },
  };
}

/**
 * Registers commands under their names; namespaced ones also under their bare name as an alias
 * (it serves while no other command has that name).
 */
export function registerMarkdownCommands(
  registrar: ContributionRegistrar,
  commands: readonly MarkdownCommand[],
  origin: CommandOrigin,
): void {
  for (const cmd of commands) {
    const command = markdownSlashCommand(cmd, origin);
    registrar.command(command);
    if (cmd.namespace) registrar.command({ ...command, name: cmd.bareName, aliasOf: cmd.name });
  }
}
