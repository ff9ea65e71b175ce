/**
 * The sandbox backends by name (SPEC §6): isolated-vm (one V8 isolate per plugin, the default
 * under Node) and quickjs (QuickJS compiled to WASM, no native module). Each backend loads its
 * engine on first use, so choosing one never loads the other.
 */
import { IsolatedVmSandbox } from "./isolated-vm.ts";
import { QuickJsSandbox } from "./quickjs/sandbox.ts";
import type { PluginSandbox, SandboxBackendName } from "./types.ts";

export const SANDBOX_BACKENDS: readonly SandboxBackendName[] = ["isolated-vm", "quickjs"];

/** Where nobody chose a backend, plain Node uses isolated-vm. */
export const DEFAULT_SANDBOX_BACKEND: SandboxBackendName = "isolated-vm";

export function createSandbox(name: SandboxBackendName = DEFAULT_SANDBOX_BACKEND): PluginSandbox {
  switch (name) {
    case "isolated-vm":
      return new IsolatedVmSandbox();
    case "quickjs":
      return new QuickJsSandbox();
  }
}
