/**
 * One plugin in QuickJS: its own QuickJS runtime inside its own WASM instance
 * (quickjs-emscripten, sync build). No native module, so it runs wherever WebAssembly does —
 * including Electron's main process with the V8 memory cage on, where isolated-vm is unproven
 * (ENGINEERING §0). These modules live in the QuickJS worker thread (worker.ts); the
 * host side talks to them through sandbox.ts.
 *
 * Same design as the isolated-vm backend (see isolated-vm.ts): the sandbox only runs inside an
 * entry from its thread (the prelude's invoke, invokeJson, settle, describe); host services
 * answer through `settle`; timers are a host service. QuickJS runs promise jobs only when asked,
 * so every entry ends by draining them (`executePendingJobs`) under the same budget — the
 * counterpart of V8's microtask checkpoint at the end of isolated-vm's applySync.
 *
 * Limits:
 * - time: an interrupt handler, which QuickJS polls while it runs, stops the entry at its
 *   deadline (the budget left to the nearest pending call, CallTable.entryBudgetMs). A try/catch
 *   cannot catch the interruption, but an async function turns it into a rejection, so the module
 *   treats any entry during which it fired as timed out. A call waiting forever hits its
 *   CallTable deadline, as with isolated-vm; background work draws on the same BackgroundBudget.
 *   A native built-in that never polls (a huge typed-array sort, BigInt arithmetic on megabit
 *   numbers) is beyond the interrupt handler: every entry is announced to the host's watchdog
 *   (`watch`, watchdog.ts), which stops the whole worker when one overruns.
 * - memory: the instance's WebAssembly.Memory has a hard maximum (setup.ts). Running
 *   out raises "out of memory" in the sandbox; the module stops when that reaches it (a plugin
 *   that catches it and frees the memory goes on, still under the cap).
 * - stack: QuickJS's own limit turns deep recursion into a catchable error. If the thread's stack
 *   overflows first (native recursion QuickJS does not count) or the instance traps, the
 *   instance is abandoned without another call into it, and the plugin faults as "memory".
 *
 * Entering and classifying is in engine.ts, building the instance in setup.ts,
 * evaluation (top-level await) in load.ts.
 */
import { BackgroundBudget, CallTable } from "../calls.ts";
import { bootOrFault } from "../boot.ts";
import { HostBridge, messageOf } from "../host-bridge.ts";
import { ContextShapes, LazyFields } from "../lazy-fields.ts";
import { decodeDescription, decodeOutcome } from "../outcome.ts";
import { ENTRY_MODULE_SOURCE, LOAD_CALL_ID } from "../prelude.ts";
import { QuickJsEngine, type EntryArg, type EntryWatch } from "./engine.ts";
import { OUT_OF_MEMORY, translateOutcome, unwrap } from "./errors.ts";
import { QuickJsLoading } from "./load.ts";
import {
  ENTRY_NAME,
  installPrelude,
  pluginModules,
  type QuickJsEntries,
  type QuickJsVm,
} from "./setup.ts";
import type { QuickJSHandle } from "quickjs-emscripten";
import {
  SandboxFault,
  type DeferredFields,
  type LazyTexts,
  type SandboxLoadOptions,
} from "../types.ts";
import { disposedFault, refusedCall } from "../refusals.ts";

const MAX_LOG_CHARS = 8_192;
const INSTALL_BUDGET_MS = 10_000;

/** What the worker adds to a module: hearing of its death, and watching its entries. */
export interface QuickJsModuleHooks {
  /** A fatal fault stopped the module (not called for dispose()). */
  stopped?(fault: SandboxFault): void;
  watch?: EntryWatch;
}

/** Loads a module in this thread: boots it, and on failure disposes it and reports a load fault. */
export function loadQuickJsModule(
  opts: SandboxLoadOptions,
  hooks: QuickJsModuleHooks = {},
): Promise<QuickJsModule> {
  return bootOrFault(new QuickJsModule(opts, hooks), opts.filename);
}

/**
 * One plugin in QuickJS, inside the worker. Only the worker talks to it, always with JSON
 * arguments (callJson); the host's SandboxModule is the proxy in sandbox.ts.
 */
export class QuickJsModule {
  functions: ReadonlySet<string> = new Set();
  arity: ReadonlyMap<string, number> = new Map();
  values: Readonly<Record<string, unknown>> = {};

  readonly #opts: SandboxLoadOptions;
  readonly #calls: CallTable;
  readonly #lazy = new LazyFields();
  readonly #shapes = new ContextShapes();
  readonly #bridge: HostBridge;
  readonly #background: BackgroundBudget;
  readonly #loading: QuickJsLoading;
  readonly #engine: QuickJsEngine;
  readonly #hooks: QuickJsModuleHooks;
  #entries?: QuickJsEntries;
  #dead = false;
  /** Why the sandbox died, for the "disposed" fault of later calls. */
  #fault?: SandboxFault;

  constructor(opts: SandboxLoadOptions, hooks: QuickJsModuleHooks = {}) {
    this.#opts = opts;
    this.#hooks = hooks;
    const { limits, filename } = opts;
    this.#calls = new CallTable({
      budgetMs: limits.callTimeoutMs,
      decode: (outcome, name) => this.#decode(outcome, name),
      onDeadline: (name) =>
        this.#die(
          new SandboxFault(
            "timeout",
            `${name} did not finish within its ${limits.callTimeoutMs} ms budget`,
          ),
        ),
    });
    this.#bridge = new HostBridge(opts.host, (id, ok, payload) =>
      this.#enterSettle(id, ok, payload),
    );
    this.#background = new BackgroundBudget(limits.callTimeoutMs);
    this.#loading = new QuickJsLoading(filename, limits.callTimeoutMs);
    this.#engine = new QuickJsEngine(limits, {
      fatal: (fault) => this.#die(fault),
      stopped: () => disposedFault(this.#fault),
      notice: (text) => this.#bridge.notice("error", text),
      watch: hooks.watch,
    });
  }

  get disposed(): boolean {
    return this.#dead;
  }

  async boot(): Promise<void> {
    const { code, filename, host, limits } = this.#opts;
    let refused: SandboxFault | undefined;
    await this.#engine.start(
      pluginModules({ code, filename, execAllowed: host.exec, refused: (f) => (refused = f) }),
    );
    if (this.#dead) throw disposedFault(this.#fault);
    const bridge = this.#bridge;
    // Our own code, before any of the plugin's: the budget only guards against a bug in it.
    this.#entries = this.#guarded("installing the prelude", INSTALL_BUDGET_MS, ({ context }) =>
      installPrelude(
        context,
        {
          log: (level, text) => bridge.log(level, text),
          call: (id, name, args) => bridge.start(id, name, args),
          cancel: (id) => bridge.cancel(id),
          done: (id, outcome) => this.#done(id, outcome),
          field: (id, name) => this.#lazy.get(Number(id), String(name)),
          overdue: () => this.#engine.overdue(),
        },
        {
          env: { ...host.env },
          exec: host.exec,
          dataDir: host.dataDir ?? "",
          // QuickJS has no WebAssembly to give, asked for or not.
          wasm: false,
          maxResultChars: limits.maxResultChars,
          maxLogChars: MAX_LOG_CHARS,
          memoryMb: limits.memoryMb,
        },
      ),
    );
    await this.#loading.evaluate(
      () =>
        this.#guarded("the module's top-level code", undefined, ({ context }) =>
          unwrap(context, context.evalCode(ENTRY_MODULE_SOURCE, ENTRY_NAME, { type: "module" })),
        ),
      () => refused,
    );
    const description = decodeDescription(
      this.#enter(this.#entries.describe, [], "describing exports"),
    );
    this.functions = description.functions;
    this.arity = description.arity;
    this.values = description.values;
    if (description.skipped.length > 0) {
      this.#bridge.notice(
        "debug",
        `exports left out (neither functions nor JSON data): ${description.skipped.join(", ")}`,
      );
    }
  }

  callJson(
    name: string,
    argsJson: string,
    lazy?: LazyTexts,
    deferred?: DeferredFields,
  ): Promise<unknown> {
    const refused = refusedCall(
      { dead: this.#dead, fault: this.#fault, functions: this.functions },
      name,
    );
    if (refused) return Promise.reject(refused);
    const id = this.#calls.open(name);
    let outcome: unknown;
    try {
      this.#lazy.register(id, lazy);
      outcome = this.#enter(
        this.#entries!.invokeJson,
        [
          id,
          name,
          this.#shapes.number(lazy?.names ?? "", deferred?.names ?? ""),
          this.#shapes.names,
          argsJson,
          deferred?.text ?? "",
        ],
        name,
      );
    } catch (fault) {
      this.#calls.abandon(id);
      this.#shapes.reset();
      return Promise.reject(fault);
    }
    return this.#calls.entered(id, outcome);
  }

  heapUsed(): number {
    if (this.#dead) return 0;
    try {
      return this.#engine.heapUsed();
    } catch {
      return 0;
    }
  }

  dispose(): void {
    if (this.#dead) return;
    this.#shutdown(new SandboxFault("disposed", "the sandbox was disposed"));
  }

  #done(id: unknown, outcome: unknown): void {
    if (id === LOAD_CALL_ID) this.#loading.evaluated();
    else if (typeof id === "number") this.#calls.complete(id, outcome);
  }

  /** Outcomes as the shared decoder reads them, QuickJS's engine faults made fatal or worded alike. */
  #decode(outcome: unknown, name: string): unknown {
    // QuickJS lets an async function catch the interruption and reject with it: still a timeout.
    if (this.#engine.interrupted) throw this.#engine.timeoutFault(name);
    const translated = translateOutcome(outcome);
    if (translated === OUT_OF_MEMORY) throw this.#engine.memoryFault(name);
    return decodeOutcome(translated, name, this.#opts.filename, this.#opts.limits.maxResultChars);
  }

  #enterSettle(id: number, ok: boolean, payload: string | undefined): void {
    if (this.#dead) return;
    // With no call pending, this is the plugin's own background work: it draws on its share.
    const background = this.#calls.size === 0;
    const started = performance.now();
    try {
      this.#enter(
        this.#entries!.settle,
        [id, ok, payload],
        "async work (an awaited host call, a timer or a callback)",
      );
      if (this.#loading.pending) {
        this.#guarded("the module's top-level await", undefined, ({ context }) =>
          this.#loading.check(context),
        );
      }
    } catch (fault) {
      // Fatal faults already stopped the sandbox; anything else is worth a line in the plugin log.
      if (!this.#dead) this.#bridge.notice("error", `host call answer failed: ${messageOf(fault)}`);
    }
    if (background && !this.#dead && !this.#background.spend(performance.now() - started)) {
      const share = Math.round(this.#background.share * 100);
      this.#die(
        new SandboxFault(
          "timeout",
          `background work (timers, callbacks) took more than ${share}% of the host's time`,
        ),
      );
    }
  }

  /** Enters the sandbox with the time left in the budget (see CallTable.entryBudgetMs). */
  #enter(entry: QuickJSHandle, args: EntryArg[], what: string): string {
    if (this.#dead) throw disposedFault(this.#fault);
    return this.#engine.enter(entry, args, this.#calls.entryBudgetMs(), what);
  }

  /** Runs `step` in the sandbox within `budgetMs` (default: what is left of the call budget). */
  #guarded<T>(what: string, budgetMs: number | undefined, step: (vm: QuickJsVm) => T): T {
    if (this.#dead) throw disposedFault(this.#fault);
    return this.#engine.guarded(what, budgetMs ?? this.#calls.entryBudgetMs(), step);
  }

  /** A fatal fault: the sandbox is stopped and everything pending fails with it. */
  #die(fault: SandboxFault): SandboxFault {
    if (this.#dead) return fault;
    this.#fault = fault;
    this.#bridge.notice("error", `sandbox stopped (${fault.kind}): ${fault.message}`);
    // Before the pending calls fail with it: whoever hears of both hears of the death first.
    this.#hooks.stopped?.(fault);
    this.#shutdown(fault);
    return fault;
  }

  #shutdown(fault: SandboxFault): void {
    this.#dead = true;
    this.#engine.stop();
    this.#entries = undefined;
    this.#bridge.dispose();
    this.#calls.failAll(fault);
    this.#loading.fail(fault);
  }
}
