/**
 * Which imports a plugin module may have, with the messages a plugin author can act on. Shared
 * by every backend so the same mistake reads the same everywhere.
 */
import { builtinModules } from "node:module";
import { SandboxFault } from "./types.ts";

export const SDK_SPECIFIER = "@islet/sdk";
export const EXEC_SPECIFIER = "@islet/sdk/exec";

const NODE_BUILTINS = new Set(builtinModules);

/** Returns which host module a specifier names, or throws SandboxFault("load") saying why not. */
export function checkImport(
  specifier: string,
  filename: string,
  execAllowed: boolean,
): "sdk" | "exec" {
  if (specifier === SDK_SPECIFIER) return "sdk";
  if (specifier === EXEC_SPECIFIER) {
    if (execAllowed) return "exec";
    throw new SandboxFault(
      "load",
      `${filename} imports ${EXEC_SPECIFIER}, which runs programs: enable unsafe mode with ` +
        "`plugins.unsafe: true` in config/features/plugins.yaml or --unsafe-plugins",
    );
  }
  if (specifier.startsWith("node:") || NODE_BUILTINS.has(specifier.split("/")[0] ?? "")) {
    throw new SandboxFault(
      "load",
      `${filename} imports "${specifier}": plugins cannot import Node modules; use fs from ${SDK_SPECIFIER}` +
        (/child_process/.test(specifier) ? ` (or exec from ${EXEC_SPECIFIER} in unsafe mode)` : ""),
    );
  }
  throw new SandboxFault(
    "load",
    `${filename} imports "${specifier}", which is not available in the sandbox: only ${SDK_SPECIFIER} ` +
      `and ${EXEC_SPECIFIER} can be imported; bundle other dependencies into the plugin`,
  );
}
