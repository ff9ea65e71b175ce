/**
 * An engine behind a bridge, as the UI hosts run it (the desktop app and `islet serve`): plugins
 * loaded and watched for hot reload, warnings and reloads pushed as events.
 */
import { createEngine, type HostOptions } from "../engine/bootstrap.ts";
import type { Engine } from "../engine/engine.ts";
import { engineHandlers, type HostInfo } from "./engine-handlers.ts";
import { BridgeService } from "./service.ts";

export interface BridgeHost {
  engine: Engine;
  service: BridgeService;
  close(): Promise<void>;
}

export async function openBridgeHost(
  opts: Omit<HostOptions, "warn"> & { host: HostInfo; warn?(line: string): void },
): Promise<BridgeHost> {
  // Warnings while loading go to the host's log only (no UI is connected yet; the plugin list
  // carries the plugin problems); later ones are pushed to the UI as well.
  let service: BridgeService | null = null;
  const engine = await createEngine({
    ...opts,
    warn: (line) => {
      opts.warn?.(line);
      service?.emit("engine/warning", { text: line });
    },
  });
  const ready: BridgeService = new BridgeService(
    engineHandlers(engine, opts.host, { emit: (event, payload) => ready.emit(event, payload) }),
  );
  service = ready;
  try {
    await engine.watchPlugins((reports) =>
      ready.emit("plugins/changed", { cause: "file-change", reports }),
    );
  } catch (err) {
    await engine.close();
    throw err;
  }
  return { engine, service: ready, close: () => engine.close() };
}
