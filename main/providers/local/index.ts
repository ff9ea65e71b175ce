/** Provider kind `local`: llama.cpp in its own process (README.md in this folder). */
import path from "node:path";
import { resolveHomes } from "../../config/homes.ts";
import { modelsDir } from "../../models/index.ts";

export { LocalProvider, type LocalProviderOptions } from "./provider.ts";
export { LocalRuntime, type LocalRuntimeOptions } from "./runtime-process.ts";
export { sharedRuntime, unloadSharedRuntime } from "./shared-runtime.ts";
export type { TurnStats } from "./protocol.ts";

/** `<global home>/models` for the home the environment names (ISLET_HOME, else ~/.islet). */
export function defaultModelsDir(env: Record<string, string | undefined> = process.env): string {
  return modelsDir(path.resolve(resolveHomes({ env: env as NodeJS.ProcessEnv }).global));
}
