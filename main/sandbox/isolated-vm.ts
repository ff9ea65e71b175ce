/**
 * The isolated-vm backend: one V8 isolate per loaded plugin (ENGINEERING §1).
 *
 * Design: the isolate only ever runs inside a host-thread entry — `applySync` with a `timeout` —
 * never in isolated-vm's background tasks. Export calls enter `invoke`; host services (fs, fetch,
 * exec, timers) are started through a synchronous callback and answered by entering `settle`;
 * microtasks (every `await` continuation) drain inside the entry that resolved them, under the
 * same timeout. So a synchronous loop, a loop after an await, a loop in a timer or a `.then` all
 * run inside an entry that isolated-vm stops, and a cpuTime sampler is not needed. What a timeout
 * cannot see — a call waiting forever — is caught by the per-call wall deadline (CallTable),
 * which disposes the isolate. The alternative (async `apply`, promise-returning References)
 * would let continuations run on isolated-vm's threads, where a loop both escapes `timeout` and
 * holds the isolate lock that the next `applySync` would block the host thread on.
 *
 * Cost: a call is one `applySync`. Arguments are structured-cloned (`copy: true`), which beat a
 * host JSON.stringify + in-isolate JSON.parse for a 10 KB context; the result comes back as a
 * JSON string that the prelude builds strictly and size-checks inside the isolate, so nothing but
 * a string ever crosses. bench/sandbox-bench.ts measures this at ~0.8–1.3× the bare applySync +
 * copy of the same context (noise dominates), where async `apply` costs ~4× (ENGINEERING §1). An
 * async export that settles without waiting costs the same plus one callback (~3 µs); only a call
 * still pending after its entry arms a deadline timer. The price of `applySync`: plugin CPU time
 * is spent on the host thread — a runaway blocks it for at most one budget, and background work
 * is held to a share of host time (BackgroundBudget).
 */
import type IsolatedVM from "isolated-vm";
import { BackgroundBudget, CallTable } from "./calls.ts";
import { bootOrFault } from "./boot.ts";
import { HostBridge, messageOf } from "./host-bridge.ts";
import { ReservedMemory } from "./isolated-vm-memory.ts";
import { spareIsolates } from "./spare-isolates.ts";
import { ContextShapes, deferredPieces, LazyFields } from "./lazy-fields.ts";
import {
  installPrelude,
  linkPlugin,
  loadIsolatedVm,
  type Ivm,
  type PreludeEntries,
} from "./isolated-vm-setup.ts";
import { decodeDescription, decodeOutcome, pluginFrame, withWasmAdvice } from "./outcome.ts";
import { LOAD_CALL_ID } from "./prelude.ts";
import {
  SandboxFault,
  type PluginSandbox,
  type SandboxLoadOptions,
  type DeferredFields,
  type LazyTexts,
  type SandboxModule,
} from "./types.ts";
import { disposedFault, refusedCall } from "./refusals.ts";

const MAX_LOG_CHARS = 8_192;
const TIMED_OUT = "Script execution timed out.";

export class IsolatedVmSandbox implements PluginSandbox {
  readonly backend = "isolated-vm" as const;

  load(opts: SandboxLoadOptions): Promise<SandboxModule> {
    const loading = loadIsolatedVm().then((ivm) =>
      bootOrFault(new IsolatedVmModule(ivm, opts), opts.filename),
    );
    booting.add(loading);
    const forget = () => booting.delete(loading);
    loading.then(forget, forget);
    return loading;
  }

  releaseSpares(): void {
    spareIsolates.release();
  }

  async settled(): Promise<void> {
    while (booting.size > 0) await Promise.allSettled([...booting]);
  }
}

/** Loads under way in this process (their isolate steps run on isolated-vm's threads). */
const booting = new Set<Promise<SandboxModule>>();

class IsolatedVmModule implements SandboxModule {
  functions: ReadonlySet<string> = new Set();
  arity: ReadonlyMap<string, number> = new Map();
  values: Readonly<Record<string, unknown>> = {};

  readonly #ivm: Ivm;
  readonly #opts: SandboxLoadOptions;
  readonly #iso: IsolatedVM.Isolate;
  readonly #calls: CallTable;
  readonly #bridge: HostBridge;
  readonly #background: BackgroundBudget;
  #entries?: PreludeEntries;
  #dead = false;
  /** Why the sandbox died, for the "disposed" fault of later calls. */
  #fault?: SandboxFault;
  #evaluated = false;
  readonly #memory: ReservedMemory;
  readonly #lazy = new LazyFields();
  readonly #shapes = new ContextShapes();
  #onEvaluated?: { resolve: () => void; reject: (fault: SandboxFault) => void };

  constructor(ivm: Ivm, opts: SandboxLoadOptions) {
    this.#ivm = ivm;
    this.#opts = opts;
    const { limits, filename } = opts;
    // A fresh isolate, possibly made ahead in idle time (spare-isolates.ts).
    const taken = spareIsolates.take(ivm, Math.max(8, limits.memoryMb));
    taken.onCatastrophicError((message) =>
      this.#die(new SandboxFault("memory", `V8 gave up on the plugin's isolate: ${message}`)),
    );
    this.#iso = taken.iso;
    this.#calls = new CallTable({
      budgetMs: limits.callTimeoutMs,
      decode: (outcome, name) => decodeOutcome(outcome, name, filename, limits.maxResultChars),
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
    this.#memory = new ReservedMemory(this.#iso, limits.memoryMb, (fault) => this.#die(fault));
  }

  get disposed(): boolean {
    return this.#dead;
  }

  async boot(): Promise<void> {
    const { code, filename, host, limits } = this.#opts;
    // Async steps run on the isolate's own thread: concurrent loads overlap instead of queueing
    // on the host thread (a batch of 10 warm loads: ~3.3 against ~4.5 ms a plugin synchronously).
    // `settled()` lets a closing host wait for them: a task still pending in isolated-vm when the
    // process exits can abort it in isolated-vm's teardown.
    const context = await this.#iso.createContext();
    const bridge = this.#bridge;
    this.#entries = await installPrelude(
      this.#ivm,
      this.#iso,
      context,
      {
        log: (level, text) => bridge.log(level, text),
        call: (id, name, args) => bridge.start(id, name, args),
        cancel: (id) => bridge.cancel(id),
        done: (id, outcome) => this.#done(id, outcome),
        field: (id, name) => this.#lazy.get(Number(id), String(name)),
        reserve: (live, wanted, refuse, what) =>
          this.#memory.reserve(Number(live), Number(wanted), !!refuse, String(what)),
      },
      {
        env: { ...host.env },
        exec: host.exec,
        dataDir: host.dataDir ?? "",
        wasm: this.#opts.allowWasm === true,
        maxResultChars: limits.maxResultChars,
        maxLogChars: MAX_LOG_CHARS,
      },
      limits.callTimeoutMs,
    );
    const main = await linkPlugin(this.#iso, context, { code, filename, execAllowed: host.exec });
    await this.#evaluate(main);
    const description = decodeDescription(
      this.#enter(this.#entries!.describe, [], false, "describing exports"),
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

  call(name: string, args: unknown[]): Promise<unknown> {
    return this.#invoke(name, "invoke", args, true);
  }

  callJson(
    name: string,
    argsJson: string,
    lazy?: LazyTexts,
    deferred?: DeferredFields,
  ): Promise<unknown> {
    return this.#invoke(name, "invokeJson", argsJson, false, lazy, deferred);
  }

  #invoke(
    name: string,
    entry: "invoke" | "invokeJson",
    args: unknown,
    copyArgs: boolean,
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
      let entryArgs: unknown[];
      if (entry === "invokeJson") {
        this.#lazy.register(id, lazy);
        const shape = this.#shapes.number(lazy?.names ?? "", deferred?.names ?? "");
        const names = this.#shapes.names;
        entryArgs = [id, name, shape, names, args, ...deferredPieces(deferred)];
      } else entryArgs = [id, name, args];
      outcome = this.#enter(this.#entries![entry], entryArgs, copyArgs, name);
    } catch (fault) {
      this.#calls.abandon(id);
      this.#shapes.reset();
      return Promise.reject(fault);
    }
    return this.#calls.entered(id, outcome);
  }

  heapUsed(): number {
    if (this.#dead || this.#iso.isDisposed) return 0;
    try {
      return this.#iso.getHeapStatisticsSync().used_heap_size;
    } catch {
      return 0;
    }
  }

  dispose(): void {
    if (this.#dead) return;
    this.#shutdown(new SandboxFault("disposed", "the sandbox was disposed"));
  }

  // Runs the module graph; its top-level code (and any top-level await) is on the call budget.
  async #evaluate(main: IsolatedVM.Module): Promise<void> {
    const { filename, limits } = this.#opts;
    try {
      main.evaluateSync({ timeout: limits.callTimeoutMs });
    } catch (error) {
      const fault = this.#faultFrom(error, "the module's top-level code");
      if (fault.kind !== "exception")
        throw new SandboxFault("load", fault.message, { cause: fault });
      const frame = pluginFrame(error instanceof Error ? String(error.stack) : "", filename);
      throw new SandboxFault(
        "load",
        withWasmAdvice(
          `${filename} failed while loading: ${fault.message}${frame ? ` (at ${frame})` : ""}`,
        ),
      );
    }
    if (this.#evaluated) return;
    // Top-level await still pending: wait for it, but not past the budget.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new SandboxFault(
              "load",
              `${filename}: top-level await did not finish within ${limits.callTimeoutMs} ms (or failed after awaiting)`,
            ),
          ),
        limits.callTimeoutMs,
      );
      this.#onEvaluated = {
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (fault) => (
          clearTimeout(timer),
          reject(new SandboxFault("load", fault.message, { cause: fault }))
        ),
      };
    });
  }

  #done(id: unknown, outcome: unknown): void {
    if (id === LOAD_CALL_ID) {
      this.#evaluated = true;
      this.#onEvaluated?.resolve();
    } else if (typeof id === "number") {
      this.#calls.complete(id, outcome);
    }
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
        false,
        "async work (an awaited host call, a timer or a callback)",
      );
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

  /** Enters the sandbox with the time left in the budget; errors come out as SandboxFaults. */
  #enter(fn: PreludeEntries["invoke"], args: unknown[], copyArgs: boolean, what: string): unknown {
    if (this.#dead) throw disposedFault(this.#fault);
    // Gone under us (its memory limit): say so instead of calling into a disposed isolate.
    if (this.#iso.isDisposed) throw this.#faultFrom(new Error("disposed"), what);
    let result: unknown;
    try {
      result = fn.applySync(undefined, args, {
        arguments: copyArgs ? { copy: true } : {},
        timeout: this.#calls.entryBudgetMs(),
      });
    } catch (error) {
      throw this.#faultFrom(error, what);
    }
    if (!this.#dead && !this.#iso.isDisposed) {
      this.#memory.check(what, () => {
        try {
          const budget = { timeout: this.#opts.limits.callTimeoutMs };
          return Number(this.#entries!.recount.applySync(undefined, [], budget));
        } catch (error) {
          throw this.#faultFrom(error, what);
        }
      });
    }
    return result;
  }

  /** Classifies an error out of isolated-vm; fatal ones stop the sandbox. */
  #faultFrom(error: unknown, what: string): SandboxFault {
    // Died during this entry (a WebAssembly reservation over the limit, V8 giving up): that fault.
    if (this.#dead) return this.#fault ?? disposedFault(undefined);
    const { memoryMb, callTimeoutMs } = this.#opts.limits;
    if (this.#iso.isDisposed) {
      return this.#die(
        new SandboxFault(
          "memory",
          `the plugin ran out of memory (limit ${memoryMb} MB) in ${what}`,
        ),
      );
    }
    if (messageOf(error) === TIMED_OUT) {
      return this.#die(
        new SandboxFault("timeout", `${what} ran past the ${callTimeoutMs} ms call budget`),
      );
    }
    return new SandboxFault("exception", messageOf(error), { cause: error });
  }

  /** A fatal fault: the sandbox is stopped and everything pending fails with it. */
  #die(fault: SandboxFault): SandboxFault {
    if (this.#dead) return fault;
    this.#fault = fault;
    this.#bridge.notice("error", `sandbox stopped (${fault.kind}): ${fault.message}`);
    this.#shutdown(fault);
    return fault;
  }

  #shutdown(fault: SandboxFault): void {
    this.#dead = true;
    this.#bridge.dispose();
    this.#calls.failAll(fault);
    this.#onEvaluated?.reject(fault);
    try {
      if (!this.#iso.isDisposed) this.#iso.dispose();
    } catch {
      // already going away
    }
  }
}
