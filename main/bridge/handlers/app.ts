/** `app/info`: which Islet, in which shell, on which workspace. */
import { APP_VERSION } from "../../core/version.ts";
import type { AppInfo } from "../contract.ts";
import type { CallHandlers } from "../service.ts";

/** What only the host knows: which shell the UI runs in and its versions. */
export type HostInfo = Pick<AppInfo, "host" | "versions">;

/** What `app/info` asks of the engine: the folders it works on. */
export interface AppPort {
  readonly workdir: string;
  /** The global home (config, sessions, plugins). */
  readonly home: string;
}

export function appHandlers(port: AppPort, host: HostInfo): Pick<CallHandlers, "app/info"> {
  return {
    "app/info": () => ({
      name: "Islet",
      version: APP_VERSION,
      ...host,
      platform: `${process.platform}-${process.arch}`,
      workdir: port.workdir,
      home: port.home,
    }),
  };
}
