/**
 * The sandbox backends plugins run in, one row each. features/plugins.yaml's `runtime`, the
 * `--plugin-runtime` flag, the bridge's schemas and the app's words for them all read this table;
 * main/sandbox/backends.ts builds each. Plain data and zod: the renderer bundles it.
 */
import { z } from "zod";
import { oneOf } from "./words.ts";

export interface SandboxBackendRow {
  /** Its name as people read it. */
  readonly label: string;
  /** One sentence for the plugin browser, when it runs the plugins. */
  readonly summary: string;
  /** How it compares with the others, for the plugin browser's "about" list. */
  readonly about: string;
}

export const SANDBOX_BACKEND_TABLE = {
  "isolated-vm": {
    label: "isolated-vm",
    summary:
      "Each plugin runs in its own V8 isolate: native speed, with its own heap, memory limit and time limit.",
    about:
      "One V8 isolate per plugin: fastest, each with a memory and time limit. The desktop app uses it only after a probe has shown it is safe under its Electron build.",
  },
  quickjs: {
    label: "QuickJS",
    summary:
      "Each plugin runs in its own QuickJS interpreter compiled to WebAssembly: strongly isolated, no native module, slower on heavy computation.",
    about:
      "A JavaScript engine compiled to WebAssembly: no native module, a hard memory limit, about 20× slower on heavy computation. Hooks that only inspect the conversation do not notice.",
  },
} as const satisfies Record<string, SandboxBackendRow>;

export type SandboxBackendName = keyof typeof SANDBOX_BACKEND_TABLE;

/** Every backend, in the table's order (the order messages list them in). */
export const SANDBOX_BACKEND_NAMES = Object.keys(SANDBOX_BACKEND_TABLE) as [
  SandboxBackendName,
  ...SandboxBackendName[],
];

export const SandboxBackendNameSchema = z.enum(SANDBOX_BACKEND_NAMES);

/** The backends as a message lists them: "isolated-vm or quickjs". */
export const SANDBOX_BACKEND_CHOICES = oneOf(SANDBOX_BACKEND_NAMES);

export function isSandboxBackendName(name: string): name is SandboxBackendName {
  return (SANDBOX_BACKEND_NAMES as string[]).includes(name);
}
