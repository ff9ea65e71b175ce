/** The contract's calls, answered by the engine. */
import type { Engine } from "../engine/engine.ts";
import { listPlugins } from "../plugins/runtime/describe.ts";
import type { PluginRuntime } from "../plugins/runtime/runtime.ts";
import { APP_VERSION } from "../version.ts";
import type { AppInfo, PluginList, ReloadResult } from "./contract.ts";
import type { BridgeHandlers, BridgeService } from "./service.ts";

/** What only the host knows: which shell the UI runs in and its versions. */
export type HostInfo = Pick<AppInfo, "host" | "versions">;

const MAX_NAME_SHOWN = 80;

/** A client-supplied name as an error may show it: quoted, at most MAX_NAME_SHOWN characters. */
function shortName(name: string): string {
  return name.length > MAX_NAME_SHOWN
    ? `${JSON.stringify(name.slice(0, MAX_NAME_SHOWN)).slice(0, -1)}…"`
    : JSON.stringify(name);
}

function loadedPlugins(engine: Engine): PluginRuntime {
  if (!engine.plugins) throw new Error("plugins are off in this session (--without-plugins)");
  return engine.plugins;
}

export function engineHandlers(
  engine: Engine,
  host: HostInfo,
  events: Pick<BridgeService, "emit">,
): BridgeHandlers {
  return {
    "app/info": () => ({
      name: "Islet",
      version: APP_VERSION,
      ...host,
      platform: `${process.platform}-${process.arch}`,
      workdir: engine.homes.workdir,
      home: engine.homes.global,
    }),
    "plugins/list": (): PluginList => {
      const runtime = engine.plugins;
      if (!runtime) return { backend: null, plugins: [], problems: [] };
      return {
        backend: runtime.backend,
        plugins: listPlugins(runtime),
        problems: runtime.problems,
      };
    },
    "plugins/reload": async () => {
      const runtime = loadedPlugins(engine);
      const reports: ReloadResult[] = await runtime.reloadAll();
      events.emit("plugins/changed", { cause: "reload", reports });
      return { reports };
    },
    "plugins/restart": async ({ name }) => {
      const runtime = loadedPlugins(engine);
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
        };
      }
      events.emit("plugins/changed", { cause: "restart", reports: [report] });
      return report;
    },
  };
}
