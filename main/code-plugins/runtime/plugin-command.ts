/** A plugin's slash command (priority below built-in and custom commands). */
import type { SlashCommand } from "../../commands/types.ts";
import { PluginCallError, type LoadedCommand, type LoadedPlugin } from "./loaded-plugin.ts";
import { commandResultSchema, describeIssue } from "./result-schema.ts";

export function pluginCommand(
  getPlugin: () => LoadedPlugin,
  schema: LoadedCommand,
  pluginConfig: Record<string, unknown>,
  pluginName: string,
): SlashCommand {
  return {
    plugin: pluginName,
    name: schema.name,
    description: schema.description,
    hints: schema.hints,
    source: "plugin",
    async run(args, env) {
      const plugin = getPlugin();
      let raw: unknown;
      try {
        raw = await plugin.call("executeCommand", [args, { ...env.context(), pluginConfig }]);
      } catch (err) {
        throw new Error(
          `/${schema.name} (${plugin.name}) ${err instanceof PluginCallError ? err.message : String(err)}`,
          { cause: err },
        );
      }
      const parsed = commandResultSchema.safeParse(raw ?? {});
      if (!parsed.success)
        throw new Error(`/${schema.name} (${plugin.name}) returned ${describeIssue(parsed.error)}`);
      return { output: parsed.data.output, forward: schema.forward, silent: schema.silent };
    },
  };
}
