/** The load step both backends share: boot the module, and on any failure dispose it and report a load fault. */
import { messageOf } from "./host-bridge.ts";
import { SandboxFault } from "./types.ts";

export async function bootOrFault<M extends { boot(): Promise<void>; dispose(): void }>(
  module: M,
  filename: string,
): Promise<M> {
  try {
    await module.boot();
  } catch (error) {
    module.dispose();
    throw error instanceof SandboxFault && error.kind === "load"
      ? error
      : new SandboxFault("load", `${filename}: ${messageOf(error)}`, { cause: error });
  }
  return module;
}
