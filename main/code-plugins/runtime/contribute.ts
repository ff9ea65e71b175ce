/**
 * What one plugin version puts into the engine: its tool and its command. A project plugin never
 * stands in for a global one: a tool or command a global plugin already has stays the global
 * plugin's (the runtime installs global plugins first), and a project plugin's override waits
 * for the folder to be trusted.
 */
import type { Problem } from "../../host/problem.ts";
import type { ScopedRegistrar } from "../../contributions/registrar.ts";
import type { Built } from "./build.ts";
import type { LoadedPlugin } from "./loaded-plugin.ts";
import { pluginCommand } from "./plugin-command.ts";
import { overrideHeldBack, pluginTool, type ContextFallback } from "./plugin-tool.ts";
import type { PluginSpec } from "./port.ts";

interface Installed {
  spec: PluginSpec;
  plugin: LoadedPlugin;
}

/** Global plugins first, each group in the order given (alphabetical): installs run in it. */
export function globalFirst(specs: readonly PluginSpec[]): PluginSpec[] {
  return [
    ...specs.filter((s) => s.source === "global"),
    ...specs.filter((s) => s.source !== "global"),
  ];
}

/** The global plugin that has a tool or command of this name, when `spec` is a project plugin. */
function globalOwner(
  installed: readonly Installed[],
  spec: PluginSpec,
  what: "tool" | "command",
  name: string,
): PluginSpec | undefined {
  if (spec.source === "global") return undefined;
  for (const other of installed) {
    if (other.spec.source !== "global" || other.plugin.status !== "active") continue;
    const exp = other.plugin.exports;
    const has = what === "tool" ? exp.tool?.schema.name : exp.command?.name;
    if (has === name) return other.spec;
  }
  return undefined;
}

function refusal(spec: PluginSpec, what: "tool" | "command", name: string, owner: PluginSpec) {
  const shown = what === "tool" ? `tool ${name}` : `command /${name}`;
  return {
    source: spec.name,
    file: spec.manifestFile,
    title: `${shown} of project plugin ${spec.name} not loaded: the global plugin ${owner.name} (${owner.dir}) has it`,
    cause: "a workspace plugin cannot replace a global one's; rename it in the plugin's code",
  } satisfies Problem;
}

/** Registers the plugin's tool and command; returns the tool's name when it joined. */
export function contribute(opts: {
  spec: PluginSpec;
  built: Built;
  contributions: ScopedRegistrar;
  installed: readonly Installed[];
  /** The plugin serving now (a later reload swaps it). */
  current: () => LoadedPlugin;
  contextFallback: ContextFallback;
}): string | null {
  const { spec, built, contributions } = opts;
  const exp = built.plugin.exports;
  let toolName: string | null = null;
  if (built.plugin.status === "active" && exp.tool) {
    const owner = globalOwner(opts.installed, spec, "tool", exp.tool.schema.name);
    const tool = pluginTool(
      opts.current,
      exp.tool,
      { ...spec, override: spec.override && !spec.overrideHeldBack },
      opts.contextFallback,
    );
    try {
      if (owner) built.plugin.warnings.push(refusal(spec, "tool", tool.name, owner));
      else {
        contributions.tool(tool);
        toolName = tool.name;
      }
    } catch (err) {
      if (spec.overrideHeldBack) {
        // The plugin loads without the tool; what it would replace keeps serving.
        built.plugin.warnings.push(overrideHeldBack(spec, tool.name));
      } else {
        built.plugin.dispose();
        built.plugin.status = "failed";
        built.plugin.error = `${spec.manifestFile}: ${(err as Error).message}`;
        built.plugin.problems = [
          { source: spec.name, file: spec.manifestFile, title: (err as Error).message },
        ];
      }
    }
  }
  if (built.plugin.status === "active" && exp.command) {
    const owner = globalOwner(opts.installed, spec, "command", exp.command.name);
    if (owner) {
      built.plugin.warnings.push(refusal(spec, "command", exp.command.name, owner));
      return toolName;
    }
    const command = pluginCommand(opts.current, exp.command, spec.config, spec.name);
    const serving = contributions.command(command).serving();
    if (serving && serving !== command && serving.source !== "plugin") {
      built.plugin.warnings.push({
        source: spec.name,
        title: `command /${exp.command.name} is shadowed by a ${serving.source} command of the same name`,
      });
    }
  }
  return toolName;
}
