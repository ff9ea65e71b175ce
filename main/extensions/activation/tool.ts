/**
 * `activate_plugin`: the model asks to activate a listed plugin, with a reason; the user confirms
 * (the conversation's window, the terminal, --yes, or nobody = denied) and the model is told the
 * outcome in one line. The tools it adds are offered from the model's next step.
 */
import { z } from "zod";
import { defineTool } from "../../tools/define.ts";
import type { Tool } from "../../tools/types.ts";
import type { ActivationRegistry } from "./registry.ts";

export const ACTIVATE_PLUGIN_TOOL = "activate_plugin";

export function activatePluginTool(registry: ActivationRegistry): Tool {
  const tool = defineTool({
    name: ACTIVATE_PLUGIN_TOOL,
    description:
      "Ask the user to activate one of the listed inactive plugins. Give its exact name and, in " +
      "one sentence, why it helps with the task. You are told whether it was activated; its " +
      "tools are available from your next step.",
    args: {
      name: z.string().min(1).describe("The plugin's name, as listed."),
      reason: z.string().min(1).describe("Why activating it helps (shown to the user)."),
    },
    // One question at a time; activation changes the tool set.
    parallel: false,
    // It asks the user itself (the plugin-activation question, with what the plugin would run).
    approval: "allow",
    // The user reads the consent details, then a runner may pull its image: not the usual 2 min.
    timeoutMs: () => 30 * 60_000,
    async execute({ name, reason }, ctx) {
      const outcome = await registry.activate(name, {
        by: "model",
        reason,
        questions: ctx.questions,
        signal: ctx.signal,
      });
      return outcome.line;
    },
  });
  // It comes with the on-demand plugins: a turn's prompt budget pays for it.
  return { ...tool, forExtensions: true };
}
