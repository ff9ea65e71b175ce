/**
 * The seam between the plugin runtime and whatever runs plugin code. Two backends implement it
 * (isolated-vm: one V8 isolate per plugin; QuickJS: WASM), with the same semantics, the same
 * capabilities and the same containment, so the runtime never knows which one it talks to.
 *
 * Everything crossing the boundary is JSON-shaped data (copied, never shared); the plugin gets
 * host services only through the capability calls below.
 */
import type { SandboxBackendName } from "../core/sandbox-backends.ts";
import type { DeferredFields, LazyTexts } from "./lazy-fields.ts";

/** The backends are rows of one table (main/core/sandbox-backends.ts). */
export type { DeferredFields, LazyTexts, SandboxBackendName };

export interface SandboxLimits {
  /** Heap limit for the plugin (MB). Exceeding it kills the sandbox (fault "memory"). */
  memoryMb: number;
  /** CPU/wall budget for one call, including the async work it awaits (fault "timeout"). */
  callTimeoutMs: number;
  /** Largest JSON result accepted from one call, in characters (fault "result"). */
  maxResultChars: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  memoryMb: 64,
  callTimeoutMs: 5_000,
  maxResultChars: 1_000_000,
};

export type LogLevel = "debug" | "log" | "info" | "warn" | "error";

/**
 * What the host offers a plugin. The backend exposes these inside the sandbox as globals
 * (console, setTimeout/clearTimeout/setInterval/clearInterval, fetch, process.env) and as the
 * `@islet/sdk` module (fs, and `@islet/sdk/exec` only when `exec` is set).
 */
export interface HostCapabilities {
  /** console.* lines, to the plugin's log. */
  log(level: LogLevel, text: string): void;
  /** The environment the plugin may see (already filtered by its `env:` whitelist). */
  env: Readonly<Record<string, string>>;
  /**
   * Host services by name, JSON in and out: "fetch", "fs.readFile", "fs.writeFile", "fs.appendFile",
   * "fs.readdir", "fs.stat", "fs.exists", "exec". Rejections carry a message meant for the plugin author.
   * The sandbox aborts `signal` when it is disposed (in-flight fetch and exec stop then).
   */
  call(name: string, args: unknown[], signal?: AbortSignal): Promise<unknown>;
  /** Unsafe mode: `@islet/sdk/exec` exists. Otherwise importing it fails at load with advice. */
  exec: boolean;
  /** The plugin's own writable folder, as `fs.dataDir` shows it ("" where there is none). */
  dataDir?: string;
}

export type FaultKind =
  /** The call ran past its budget (sync loop, or async work after an await). */
  | "timeout"
  /** The sandbox ran out of memory and is gone. */
  | "memory"
  /** The plugin threw (or its promise rejected). */
  | "exception"
  /** The result was not JSON data, or too large. */
  | "result"
  /** The module failed to compile, link or initialise. */
  | "load"
  /** Called after dispose (or after a fatal fault). */
  | "disposed";

export class SandboxFault extends Error {
  readonly kind: FaultKind;
  constructor(kind: FaultKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SandboxFault";
    this.kind = kind;
  }
  /** After these the sandbox is unusable and must be recreated. */
  get fatal(): boolean {
    return this.kind === "memory" || this.kind === "disposed" || this.kind === "timeout";
  }
}

export interface SandboxModule {
  /** The module's exports: functions by name, and other values (copied as JSON). */
  readonly functions: ReadonlySet<string>;
  /** Declared arity of each exported function (for signature warnings). */
  readonly arity: ReadonlyMap<string, number>;
  readonly values: Readonly<Record<string, unknown>>;
  /** Calls an export with JSON arguments; resolves with its awaited JSON result. Faults reject with SandboxFault. */
  call(name: string, args: unknown[]): Promise<unknown>;
  /**
   * Same, with the arguments already serialised as a JSON array (one serialisation, many
   * plugins). `lazy` holds fields of the first argument as JSON text, fetched only if read;
   * `deferred` more of them, sent along with the call and parsed only if read.
   */
  callJson(
    name: string,
    argsJson: string,
    lazy?: LazyTexts,
    deferred?: DeferredFields,
  ): Promise<unknown>;
  /** Heap bytes in use (best effort). */
  heapUsed(): number;
  readonly disposed: boolean;
  dispose(): void;
}

export interface SandboxLoadOptions {
  /** Shown in stack traces and errors (the plugin's entry path). */
  filename: string;
  /** The bundled ES module (esbuild output; imports only `@islet/sdk` and `@islet/sdk/exec`). */
  code: string;
  limits: SandboxLimits;
  host: HostCapabilities;
  /**
   * plugin.yaml asks for WebAssembly (`permissions.wasm`). Off by default: `WebAssembly` does not
   * exist in the sandbox. On, its memory counts against `limits.memoryMb` (isolated-vm; QuickJS
   * has no WebAssembly at all).
   */
  allowWasm?: boolean;
}

export interface PluginSandbox {
  readonly backend: SandboxBackendName;
  /** Creates a fresh sandbox and evaluates the module in it. Rejects with SandboxFault("load"). */
  load(opts: SandboxLoadOptions): Promise<SandboxModule>;
  /** Drops whatever the backend made ahead for later loads (spare isolates); loads still work. */
  releaseSpares?(): void;
  /** Resolves once no load of this backend is under way (a host waits for it before it exits). */
  settled?(): Promise<void>;
}
