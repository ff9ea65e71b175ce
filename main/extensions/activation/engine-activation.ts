/**
 * On-demand activation as the engine has it: the registry over every source (sources.ts), its
 * listing as a prompt fragment, the `activate_plugin` tool and the `/plugin` command.
 */
import type { Contributions } from "../../contributions/contributions.ts";
import type { Disposable } from "../../lifecycle/disposable.ts";
import { pluginActivationCommand } from "./command.ts";
import { ActivationRegistry } from "./registry.ts";
import { activatableSources, type ActivationContext } from "./sources.ts";
import { ActivationStore } from "./store.ts";
import { activatePluginTool } from "./tool.ts";

export function setupActivation(
  extensions: Contributions,
  ctx: ActivationContext,
): ActivationRegistry {
  const registrar = extensions.registrar();
  const registry = new ActivationRegistry({
    sources: activatableSources(ctx),
    registrar,
    store: new ActivationStore(ctx.homes.global, ctx.homes.workdir, ctx.warn),
    projectHome: ctx.homes.project,
    globalHome: ctx.homes.global,
    get trusted() {
      return ctx.trustedProject;
    },
    questions: ctx.questions,
    toolNames: () => extensions.tools.names(),
    warn: ctx.warn,
  });
  registry.contributeFragment();
  registrar.command(pluginActivationCommand(registry));
  // The tool is offered only while there is a plugin to activate (it costs every call a schema).
  const tool = activatePluginTool(registry);
  let offered: Disposable | null = null;
  registry.onChange(() => {
    const wanted = registry.list().length > 0;
    if (wanted && !offered) {
      try {
        offered = registrar.tool(tool);
      } catch (err) {
        // Another tool took the name (a plugin's, without override): say so, list anyway.
        ctx.warn({
          source: "activate_plugin",
          title: `activate_plugin is not offered to the model: ${(err as Error).message}`,
        });
        return;
      }
    }
    if (!wanted && offered) {
      offered.dispose();
      offered = null;
    }
  });
  return registry;
}
