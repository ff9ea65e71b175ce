/**
 * What the runtime needs from discovery, bundling, conditions, capabilities and the sandbox.
 * `setup.ts` builds it from the real modules; the runtime itself only orchestrates.
 */
import type { ExecOutputRoute } from "../capabilities/exec-output.ts";
import type { ConditionCheck } from "./handlers.ts";
import type { PluginLog } from "./plugin-log.ts";
import type { HostCapabilities, PluginSandbox, SandboxLimits } from "../../sandbox/types.ts";
import type { ToolConfig } from "../../../plugins/sdk/index.ts";
import { formatProblem, type Problem } from "../../host/problem.ts";
import type { PermissionState } from "../../host/questions.ts";
import type { ExportsCache } from "./exports-cache.ts";

export interface PluginSpec {
  name: string;
  dir: string;
  entry: string;
  manifestFile: string;
  /** Which home it came from. */
  source: "global" | "project";
  description: string;
  disabled: boolean;
  condition: string | undefined;
  once: boolean;
  override: boolean;
  /**
   * `override: true` in a project plugin of a folder not trusted: its tool may not replace one
   * already there (a repository answering the model's Read with its own text).
   */
  overrideHeldBack?: boolean;
  optIn: boolean;
  /** Merged plugin.yaml → config.global → config.local.<name>. */
  config: Record<string, unknown>;
  /** SDK compatibility: undefined when fine (or unchecked), else the error line. */
  sdkProblem: string | undefined;
  sdkStatus: "compatible" | "incompatible" | "unchecked";
  /** Warnings from reading the manifest (unknown fields…). */
  warnings: Problem[];
  /** plugin.yaml asks for WebAssembly (`permissions.wasm`); the sandbox has none otherwise. */
  allowWasm: boolean;
  /** `activation: on-demand`: discovered, loaded only once activated (PluginRuntime.activate). */
  onDemand?: boolean;
  /** `stateless: true`: its sandbox may be released while idle (PluginPort.idleReleaseMs). */
  stateless?: boolean;
}

/** A bundle that failed: one line per error, and the same errors whole (file, line, column). */
export class BundleError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(problems.map(formatProblem).join("\n"));
    this.name = "BundleError";
    this.problems = problems;
  }
}

export interface BundleOutput {
  code: string;
  /** Every file the bundle read (the watcher maps changes back to the plugin through them). */
  inputs: string[];
}

export interface PluginPort {
  discover(): Promise<{ plugins: PluginSpec[]; errors: Problem[] }>;
  /** Rejects with a BundleError (or an Error whose message says why it could not bundle). */
  bundle(spec: PluginSpec): Promise<BundleOutput>;
  /**
   * Throws with a clear message for an invalid expression. `spec`: the plugin whose manifest holds
   * it (its `bash:` commands run only once granted); absent for the user's own `/assert`.
   */
  condition(text: string, workdir: string, spec?: PluginSpec): ConditionCheck;
  /** `execOutput`: where the plugin's exec streams while one of its tool calls runs. */
  capabilities(spec: PluginSpec, log: PluginLog, execOutput?: ExecOutputRoute): HostCapabilities;
  sandbox: PluginSandbox;
  /** Why this backend runs (the flag, the features file, or the host's probe). */
  sandboxReason: string;
  limits: SandboxLimits;
  /** How long a `stateless` plugin's sandbox stays without a call before it is released. */
  idleReleaseMs: number;
  toolConfig: ToolConfig;
  workdir: string;
  /** Where each plugin's log file goes (null: memory only). */
  logFile(name: string): string | null;
  /** Where the tool each plugin last provided is remembered (known-names.ts); none: not kept. */
  knownToolsFile?: string;
  /** Likewise for each plugin's slash command. */
  knownCommandsFile?: string;
  /** What command-only bundles export, kept so their sandboxes start on first use; none: probe each. */
  exportsCache?: ExportsCache;
  /** Folders to watch for hot reload. */
  pluginDirs(): string[];
  /** What a plugin asks for in plugin.yaml and where each request stands (the consent gate). */
  permissions?(plugin: string): PermissionState[];
}
