/** `app/info`: which Islet, in which shell, on which workspace. */
import type { Engine } from "../../engine/engine.ts";
import { APP_VERSION } from "../../core/version.ts";
import type { AppInfo } from "../contract.ts";
import type { CallHandlers } from "../service.ts";

/** What only the host knows: which shell the UI runs in and its versions. */
export type HostInfo = Pick<AppInfo, "host" | "versions">;

export function appHandlers(engine: Engine, host: HostInfo): Pick<CallHandlers, "app/info"> {
  return {
    "app/info": () => ({
      name: "Islet",
      version: APP_VERSION,
      ...host,
      platform: `${process.platform}-${process.arch}`,
      workdir: engine.homes.workdir,
      home: engine.homes.global,
    }),
  };
}
