/**
 * The sandbox backends by name (SPEC §6): isolated-vm (one V8 isolate per plugin, the default
 * under Node) and quickjs (QuickJS compiled to WASM, no native module). Each backend loads its
 * engine on first use, so choosing one never loads the other.
 */
import { SANDBOX_BACKEND_NAMES } from "../core/sandbox-backends.ts";
import { IsolatedVmSandbox } from "./isolated-vm.ts";
import { QuickJsSandbox } from "./quickjs/sandbox.ts";
import type { PluginSandbox, SandboxBackendName } from "./types.ts";

export const SANDBOX_BACKENDS: readonly SandboxBackendName[] = SANDBOX_BACKEND_NAMES;

/** Where nobody chose a backend, plain Node uses isolated-vm. */
export const DEFAULT_SANDBOX_BACKEND: SandboxBackendName = "isolated-vm";

/** One per row of the backend table (main/core/sandbox-backends.ts): a missing one does not compile. */
const FACTORIES: Record<SandboxBackendName, () => PluginSandbox> = {
  "isolated-vm": () => new IsolatedVmSandbox(),
  quickjs: () => new QuickJsSandbox(),
};

export function createSandbox(name: SandboxBackendName = DEFAULT_SANDBOX_BACKEND): PluginSandbox {
  return FACTORIES[name]();
}
