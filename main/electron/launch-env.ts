/**
 * What the environment may set for one launch of the desktop app, for the e2e specs and scripted
 * launches (README, "The app"): where Electron keeps its own data, and the model, as `islet serve`
 * takes them from flags. `ISLET_HOME` and `ISLET_WORKDIR` are read where the homes are resolved.
 *
 * - `ISLET_USER_DATA_DIR`: Electron's userData (window place, key store, sandbox probe verdict,
 *   and the single-instance lock, so two launches with two folders are two apps).
 * - `ISLET_PROVIDER`, `ISLET_BASE_URL`, `ISLET_MODEL`: `--provider`, `--base-url`, `--model`.
 */
import path from "node:path";
import type { ResolveFlags } from "../providers/resolve.ts";

export interface LaunchOverrides {
  /** Absolute; absent: Electron's default. */
  userDataDir?: string;
  flags: ResolveFlags;
}

export function launchOverrides(env: NodeJS.ProcessEnv): LaunchOverrides {
  const set = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const userDataDir = set("ISLET_USER_DATA_DIR");
  const provider = set("ISLET_PROVIDER");
  const baseUrl = set("ISLET_BASE_URL");
  const model = set("ISLET_MODEL");
  return {
    ...(userDataDir ? { userDataDir: path.resolve(userDataDir) } : {}),
    flags: {
      ...(provider ? { provider } : {}),
      ...(baseUrl ? { baseUrl } : {}),
      ...(model ? { model } : {}),
    },
  };
}
