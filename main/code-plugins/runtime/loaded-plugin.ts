/**
 * One plugin as the runtime holds it: its sandboxed module, what it exports, and its health.
 * Calls go through here so faults are counted in one place: a fatal fault (timeout, memory)
 * costs the sandbox, which is recreated on the next call up to a cap; repeated faults of any
 * kind mark the plugin errored until it is reloaded or restarted.
 */
import { ExecOutputRoute } from "../capabilities/exec-output.ts";
import {
  SandboxFault,
  type DeferredFields,
  type LazyTexts,
  type SandboxModule,
} from "../../sandbox/types.ts";
import type { HookTiming } from "../../turn/hooks/types.ts";
import type { CommandSchema, ToolSchema } from "../../../plugins/sdk/index.ts";
import type { PluginLog } from "./plugin-log.ts";
import { formatProblem, problemLocation, problemText, type Problem } from "../../host/problem.ts";

export type PluginStatus = "active" | "disabled" | "failed" | "errored";

/** Restarts after fatal faults before the plugin is marked errored. */
export const MAX_RESTARTS = 3;
/** How long a `stateless: true` plugin's sandbox sits without a call before it is released. */
export const IDLE_RELEASE_MS = 10 * 60_000;
/** Consecutive faulty calls before the plugin is marked errored. */
export const MAX_CONSECUTIVE_FAULTS = 5;

export interface PluginToolExports {
  schema: ToolSchema;
  parallel: boolean;
  sandboxable: boolean;
  hasPaths: boolean;
}

export interface PluginExports {
  hooks: HookTiming[];
  tool: PluginToolExports | null;
  command: LoadedCommand | null;
}

/** A plugin's command schema as the engine keeps it: hints already one string. */
export type LoadedCommand = Omit<CommandSchema, "hints"> & { hints?: string };

/** A call that did not produce a result, with a message meant for the user and the author. */
export class PluginCallError extends Error {
  readonly fault: SandboxFault | null;
  constructor(message: string, fault: SandboxFault | null) {
    super(message);
    this.name = "PluginCallError";
    this.fault = fault;
  }
}

export function describeFault(fault: SandboxFault, budgetMs: number, memoryMb: number): string {
  switch (fault.kind) {
    case "timeout":
      return `did not finish within ${budgetMs} ms and was stopped (${fault.message})`;
    case "memory":
      return `ran out of its ${memoryMb} MB memory and was stopped`;
    case "exception":
      return `threw: ${fault.message}`;
    case "result":
      return `returned something unusable: ${fault.message}`;
    default:
      return fault.message;
  }
}

export class LoadedPlugin {
  readonly name: string;
  status: PluginStatus;
  /** Why it failed to load or was marked errored. */
  error: string | undefined;
  /** Why it failed to load, whole: where each problem is (a bundle error's file, line, column). */
  problems: Problem[];
  /** Manifest warnings (in plugin.yaml) and its own (signatures, a shadowed command…). */
  readonly warnings: Problem[] = [];
  exports: PluginExports = { hooks: [], tool: null, command: null };
  restarts = 0;
  faults = 0;
  /** Total faults since load, for the plugin browser. */
  totalFaults = 0;
  /** The most recent fault (which export, what happened, when), for the plugin browser. */
  lastFault: { call: string; message: string; at: string } | null = null;
  readonly log: PluginLog;
  /** Its tool calls enter it so that exec output streams to the running call's card. */
  readonly execOutput: ExecOutputRoute;
  private module: SandboxModule | null;
  private readonly relaunch: (() => Promise<SandboxModule>) | null;
  private readonly limits: { budgetMs: number; memoryMb: number };
  private relaunching: Promise<SandboxModule> | null = null;
  /** A `stateless: true` plugin's sandbox is released after this long without a call. */
  private readonly idleReleaseMs: number | null;
  private idleTimer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  private lastCall = performance.now();
  /** The sandbox was released for being idle: the next call recreates it, not a restart. */
  private released = false;
  /** Built without a sandbox (its exports known from an earlier probe): the first call makes it. */
  private unstarted = false;

  constructor(opts: {
    name: string;
    status: PluginStatus;
    error?: string;
    problems?: Problem[];
    module: SandboxModule | null;
    relaunch: (() => Promise<SandboxModule>) | null;
    log: PluginLog;
    limits: { budgetMs: number; memoryMb: number };
    execOutput?: ExecOutputRoute;
    /** Release the sandbox after this long idle (plugins that keep no state in it); null: never. */
    idleReleaseMs?: number | null;
    /** No sandbox yet (`module` null): the first call starts it through `relaunch`. */
    startOnUse?: boolean;
  }) {
    this.name = opts.name;
    this.status = opts.status;
    this.error = opts.error;
    this.problems = opts.problems ?? [];
    this.module = opts.module;
    this.relaunch = opts.relaunch;
    this.log = opts.log;
    this.limits = opts.limits;
    this.execOutput = opts.execOutput ?? new ExecOutputRoute();
    this.idleReleaseMs = opts.idleReleaseMs ?? null;
    this.unstarted = opts.startOnUse === true && opts.module === null;
    this.released = this.unstarted;
    this.armIdle();
  }

  /** Whether its sandbox is released for now (idle); the next call brings it back. */
  get idle(): boolean {
    return this.released && !this.unstarted;
  }

  /** Whether a call of it is under way. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  /** Whether its sandbox was never started (it starts at the first call). */
  get notStarted(): boolean {
    return this.unstarted;
  }

  private armIdle(): void {
    if (this.idleReleaseMs === null || this.idleTimer !== null || this.module === null) return;
    const wait = Math.max(0, this.lastCall + this.idleReleaseMs - performance.now());
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      this.releaseIfIdle();
    }, wait);
    // An idle plugin never keeps the process alive.
    this.idleTimer.unref();
  }

  private releaseIfIdle(): void {
    const module = this.module;
    if (module === null || module.disposed || this.idleReleaseMs === null) return;
    if (this.inFlight > 0 || performance.now() - this.lastCall < this.idleReleaseMs) {
      if (this.inFlight === 0) this.armIdle();
      return;
    }
    module.dispose();
    this.released = true;
    const minutes = Math.round(this.idleReleaseMs / 600) / 100;
    this.log.write("debug", `sandbox released after ${minutes} min without a call`);
  }

  private clearIdle(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  get available(): boolean {
    return this.status === "active";
  }

  /** Marks the plugin errored (the UI can restart it). */
  markErrored(reason: string): void {
    this.status = "errored";
    this.error = reason;
    this.log.write("error", `marked errored: ${reason}`);
  }

  /** Back to active with a fresh sandbox (the plugin browser's "restart"). */
  async restart(): Promise<void> {
    if (!this.relaunch)
      throw new Error(`${this.name} cannot be restarted: ${this.error ?? "it never loaded"}`);
    this.module?.dispose();
    this.module = await this.relaunch();
    this.released = false;
    this.unstarted = false;
    this.lastCall = performance.now();
    this.armIdle();
    this.status = "active";
    this.error = undefined;
    this.faults = 0;
    this.restarts = 0;
  }

  private async sandbox(): Promise<SandboxModule> {
    if (this.module && !this.module.disposed) return this.module;
    if (!this.relaunch) throw new PluginCallError(`${this.name} is not loaded`, null);
    if (this.released) return this.revive(this.relaunch);
    if (this.restarts >= MAX_RESTARTS) {
      this.markErrored(
        `stopped ${MAX_RESTARTS} times; fix it and /reload, or restart it from the plugin browser`,
      );
      throw new PluginCallError(`${this.name} is errored: ${this.error}`, null);
    }
    // Concurrent callers share one relaunch.
    this.relaunching ??= this.relaunch().finally(() => (this.relaunching = null));
    this.restarts++;
    this.log.write("warn", `restarting the sandbox (restart ${this.restarts} of ${MAX_RESTARTS})`);
    this.module = await this.relaunching;
    return this.module;
  }

  /** A released sandbox comes back as a fresh one: its module's top-level code runs again. */
  private async revive(relaunch: () => Promise<SandboxModule>): Promise<SandboxModule> {
    this.relaunching ??= relaunch().finally(() => (this.relaunching = null));
    const module = await this.relaunching;
    if (this.released) {
      this.released = false;
      const why = this.unstarted
        ? "started at its first call"
        : "recreated after being released while idle";
      this.unstarted = false;
      this.log.write("debug", `sandbox ${why}`);
    }
    this.module = module;
    return module;
  }

  call(name: string, args: unknown[]): Promise<unknown> {
    return this.run(name, (m) => m.call(name, args));
  }

  /** `argsJson` is the arguments array already serialised (hook contexts, shared by plugins). */
  callJson(
    name: string,
    argsJson: string,
    lazy?: LazyTexts,
    deferred?: DeferredFields,
  ): Promise<unknown> {
    return this.run(name, (m) => m.callJson(name, argsJson, lazy, deferred));
  }

  private async run(
    name: string,
    invoke: (m: SandboxModule) => Promise<unknown>,
  ): Promise<unknown> {
    if (this.status !== "active")
      throw new PluginCallError(
        `${this.name} is ${this.status}${this.error ? `: ${this.error}` : ""}`,
        null,
      );
    // A live sandbox is used as it is: no extra turn of the event loop per hook call.
    let module = this.module !== null && !this.module.disposed ? this.module : null;
    if (module === null) {
      try {
        module = await this.sandbox();
      } catch (err) {
        if (err instanceof PluginCallError) throw err;
        this.markErrored(`its sandbox could not be restarted: ${(err as Error).message}`);
        throw new PluginCallError(`${this.name} is errored: ${this.error}`, null);
      }
    }
    this.inFlight++;
    try {
      const result = await invoke(module);
      this.faults = 0;
      return result;
    } catch (err) {
      const fault =
        err instanceof SandboxFault
          ? err
          : new SandboxFault("exception", (err as Error).message ?? String(err));
      this.faults++;
      this.totalFaults++;
      const message = describeFault(fault, this.limits.budgetMs, this.limits.memoryMb);
      this.lastFault = { call: name, message, at: new Date().toISOString() };
      this.log.write("error", `${name}: ${message}`);
      if (this.faults >= MAX_CONSECUTIVE_FAULTS) {
        this.markErrored(`${MAX_CONSECUTIVE_FAULTS} faults in a row (last: ${message})`);
      }
      throw new PluginCallError(message, fault);
    } finally {
      this.inFlight--;
      this.lastCall = performance.now();
      this.armIdle();
    }
  }

  dispose(): void {
    this.clearIdle();
    this.module?.dispose();
    this.module = null;
  }

  heapUsed(): number {
    return this.module && !this.module.disposed ? this.module.heapUsed() : 0;
  }
}

/** A warning as the plugin's own card and log show it: its name is not repeated before it. */
export function ownLine(plugin: string, problem: Problem): string {
  return problemLocation(problem) === plugin ? problemText(problem) : formatProblem(problem);
}

/** A load error's first line (the rest is a stack or a bundler's listing), for one-line reports. */
export function firstLine(error: string | undefined): string {
  return (error ?? "no reason given").split("\n")[0];
}
