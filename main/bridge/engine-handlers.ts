/** The contract's calls, answered by the engine. */
import type { Engine } from "../engine/engine.ts";
import { listPlugins } from "../plugins/runtime/describe.ts";
import type { PluginRuntime } from "../plugins/runtime/runtime.ts";
import { APP_VERSION } from "../version.ts";
import type { AppInfo, PluginList, ReloadResult } from "./contract.ts";
import type { BridgeHandlers, BridgeService } from "./service.ts";

/** What only the host knows: which shell the UI runs in and its versions. */
export type HostInfo = Pick<AppInfo, "host" | "versions">;

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
