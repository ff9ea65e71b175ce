/** A plugin as `islet plugins list|show --json`, /plugins and the plugin browser see it. */
import type { HookTiming } from "../../turn/hooks/types.ts";
import type { Problem } from "../../host/problem.ts";
import type { PermissionState } from "../../host/questions.ts";
import type { SandboxBackendName } from "../../sandbox/types.ts";
import { ownLine, type PluginStatus } from "./loaded-plugin.ts";
import type { PluginRuntime } from "./runtime.ts";

export interface PluginInfo {
  name: string;
  description: string;
  status: PluginStatus;
  error: string | null;
  /** The last hot reload failed; the previous version is still serving. */
  reloadError: string | null;
  /** What `reloadError` (else `error`) is about, whole: the app shows each one's place. */
  problems: Problem[];
  source: "global" | "project";
  dir: string;
  entry: string;
  hooks: HookTiming[];
  condition: string | null;
  once: boolean;
  /** once-hooks that have fired in some session. */
  fired: HookTiming[];
  tool: { name: string; parallel: boolean; optIn: boolean; override: boolean } | null;
  command: { name: string; hints: string | null; forward: boolean } | null;
  sdk: "compatible" | "incompatible" | "unchecked";
  /** The sandbox backend it runs on and why (the same for every plugin of a runtime). */
  backend: { name: SandboxBackendName; reason: string };
  warnings: string[];
  faults: number;
  lastFault: { call: string; message: string; at: string } | null;
  restarts: number;
  heapBytes: number;
  logFile: string | null;
  /** What plugin.yaml asks for and where each request stands. */
  permissions: PermissionState[];
}

export function pluginInfo(runtime: PluginRuntime, name: string): PluginInfo | undefined {
  const entry = runtime.get(name);
  if (!entry) return undefined;
  const { spec, plugin } = entry;
  const exp = plugin.exports;
  return {
    name,
    description: spec.description,
    status: plugin.status,
    error: plugin.error ?? null,
    reloadError: entry.reloadError ?? null,
    problems: entry.reloadError !== undefined ? (entry.reloadProblems ?? []) : plugin.problems,
    source: spec.source,
    dir: spec.dir,
    entry: spec.entry,
    hooks: exp.hooks,
    condition: spec.condition ?? null,
    once: spec.once,
    fired: exp.hooks.filter((t) => runtime.once.anyFired(name, t)),
    tool: exp.tool
      ? {
          name: exp.tool.schema.name,
          parallel: exp.tool.parallel,
          optIn: spec.optIn,
          override: spec.override,
        }
      : null,
    command: exp.command
      ? {
          name: exp.command.name,
          hints: exp.command.hints ?? null,
          forward: exp.command.forward ?? false,
        }
      : null,
    sdk: spec.sdkStatus,
    backend: runtime.backend,
    warnings: plugin.warnings.map((w) => ownLine(name, w)),
    faults: plugin.totalFaults,
    lastFault: plugin.lastFault,
    restarts: plugin.restarts,
    heapBytes: plugin.heapUsed(),
    logFile: plugin.log.file,
    permissions: runtime.port.permissions?.(name) ?? [],
  };
}

export function listPlugins(runtime: PluginRuntime): PluginInfo[] {
  return runtime.names().map((n) => pluginInfo(runtime, n)!);
}
