/** `plugins/*`: the plugin browser's list, reload and restart; changes go to every client. */
import { listPlugins } from "../../code-plugins/runtime/describe.ts";
import { ProblemError } from "../../host/problem.ts";
import type { PluginRuntime } from "../../code-plugins/runtime/runtime.ts";
import type { PluginList, ReloadResult } from "../contract.ts";
import type { ExtensionEntry } from "../schemas/extensions.ts";
import { EVERYONE, type BridgeService, type CallHandlers } from "../service.ts";

type PluginCalls = "plugins/list" | "plugins/reload" | "plugins/restart";

const MAX_NAME_SHOWN = 80;

/** A client-supplied name as an error may show it: quoted, at most MAX_NAME_SHOWN characters. */
function shortName(name: string): string {
  return name.length > MAX_NAME_SHOWN
    ? `${JSON.stringify(name.slice(0, MAX_NAME_SHOWN)).slice(0, -1)}…"`
    : JSON.stringify(name);
}

/** What the plugin browser's calls ask of the engine. */
export interface PluginsPort {
  /** The code plugins' runtime; null with plugins off (--without-plugins). */
  plugins(): PluginRuntime | null;
  /** Shell hook files, Claude Code plugins and the homes' markdown folders, as listed. */
  extensions(): ExtensionEntry[];
  /** Reads shell hooks, Claude Code plugins and the homes' commands, skills and agents again. */
  reloadExtensions(): Promise<void>;
}

/** The runtime, or the error a call that needs plugins answers with them off. */
export function loadedPlugins(port: Pick<PluginsPort, "plugins">): PluginRuntime {
  const runtime = port.plugins();
  if (!runtime) throw new Error("plugins are off in this session (--without-plugins)");
  return runtime;
}

export function pluginHandlers(
  port: PluginsPort,
  service: Pick<BridgeService, "emit">,
): Pick<CallHandlers, PluginCalls> {
  return {
    "plugins/list": (): PluginList => {
      const runtime = port.plugins();
      // Shell hooks are configuration: listed even with plugins off.
      const extensions = port.extensions();
      if (!runtime) return { backend: null, plugins: [], problems: [], extensions };
      return {
        backend: runtime.backend,
        plugins: listPlugins(runtime),
        problems: runtime.problems,
        extensions,
      };
    },
    "plugins/reload": async () => {
      const runtime = loadedPlugins(port);
      await port.reloadExtensions();
      const reports: ReloadResult[] = await runtime.reloadAll();
      service.emit(EVERYONE, "plugins/changed", { cause: "reload", reports });
      return { reports };
    },
    "plugins/restart": async ({ name }) => {
      const runtime = loadedPlugins(port);
      // Nothing to restart: an error for the caller alone (the name, any length, cut short);
      // nothing changed, so no event tells the other clients.
      if (!runtime.get(name)) throw new Error(`no plugin named ${shortName(name)}`);
      const started = performance.now();
      let report: ReloadResult;
      try {
        await runtime.restart(name);
        report = { name, ok: true, ms: performance.now() - started };
      } catch (err) {
        report = {
          name,
          ok: false,
          ms: performance.now() - started,
          error: (err as Error).message,
          ...(err instanceof ProblemError ? { problems: [err.problem] } : {}),
        };
      }
      service.emit(EVERYONE, "plugins/changed", { cause: "restart", reports: [report] });
      return report;
    },
  };
}
