/**
 * The QuickJS backend (SPEC §6), as the host thread sees it. The plugins run in QuickJS in a
 * worker thread (worker.ts, module.ts); here each module is a proxy that forwards
 * load, calls, heap figures and dispose over messages, and serves the plugin's host capabilities,
 * which stay on this thread (HostCapabilities.call is async and JSON in and out; log is fire and
 * forget; env is data sent with the load).
 *
 * Why a worker: QuickJS's interrupt handler bounds ordinary code, but a few native built-ins never
 * poll it (sorting a huge typed array, BigInt arithmetic on megabit numbers) and run for seconds.
 * On the host thread (Electron's main process) that froze the app. In the worker, the watchdog
 * (watchdog.ts) terminates the worker instead:
 * - the plugin whose entry overran faults "timeout" (its pending calls, or its load) and stays
 *   dead, like any sandbox after a fatal fault; the runtime restarts it as usual;
 * - every other module of that worker is reloaded by its proxy in a fresh worker, with a warning
 *   in its log: the plugin sees no fault and `disposed` stays false, only its module state starts
 *   over (as after a runtime restart). Its calls in flight at that moment cannot be replayed
 *   (they may have had effects) and fail with a "disposed" fault saying why.
 * A worker that crashes on its own (not stopped by the watchdog) has no known culprit, so nothing
 * is reloaded behind the runtime's back: every module in it is dead, and the runtime restarts
 * each on its next call, within its restart cap.
 */
import { bootOrFault } from "../boot.ts";
import { HostServer } from "./host-server.ts";
import {
  sharedWorkerLink,
  type LinkedModule,
  type QuickJsWorkerLink,
  type WorkerLoss,
} from "./link.ts";
import { argumentsJson, toFault, type FromWorker } from "./protocol.ts";
import {
  SandboxFault,
  type DeferredFields,
  type LazyTexts,
  type PluginSandbox,
  type SandboxLoadOptions,
  type SandboxModule,
} from "../types.ts";
import { disposedFault, refusedCall } from "../refusals.ts";
import { lazyRecord } from "../lazy-fields.ts";

/** Loads tried before giving up when other plugins' overruns keep stopping the worker. */
const LOAD_ATTEMPTS = 3;
/** heapUsed() answers from the last figure and asks for a fresh one at most this often. */
const HEAP_REFRESH_MS = 1_000;
/** A load cut short by another module's overrun: try again in a fresh worker. */
const WORKER_LOST = Symbol("worker lost");

export class QuickJsSandbox implements PluginSandbox {
  readonly backend = "quickjs" as const;

  load(opts: SandboxLoadOptions): Promise<SandboxModule> {
    return bootOrFault(new QuickJsProxy(opts), opts.filename);
  }
}

interface PendingCall {
  link: QuickJsWorkerLink;
  resolve(value: unknown): void;
  reject(fault: SandboxFault): void;
}

class QuickJsProxy implements SandboxModule, LinkedModule {
  functions: ReadonlySet<string> = new Set();
  arity: ReadonlyMap<string, number> = new Map();
  values: Readonly<Record<string, unknown>> = {};
  readonly filename: string;

  readonly #opts: SandboxLoadOptions;
  readonly #calls = new Map<number, PendingCall>();
  #nextCall = 1;
  #link?: QuickJsWorkerLink;
  /** This module's number in #link's worker. */
  #id = 0;
  #loading?: { resolve(): void; reject(reason: SandboxFault | typeof WORKER_LOST): void };
  /** While reloading after another plugin's overrun: calls wait for it. Never rejects. */
  #reloading?: Promise<void>;
  readonly #services: HostServer;
  #dead = false;
  /** Why the module died, for the "disposed" fault of later calls. */
  #fault?: SandboxFault;
  #heap = 0;
  #heapAskedAt = -Infinity;

  constructor(opts: SandboxLoadOptions) {
    this.#opts = opts;
    this.filename = opts.filename;
    this.#services = new HostServer(opts.host);
  }

  get disposed(): boolean {
    return this.#dead;
  }

  async boot(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#loadInWorker();
      } catch (reason) {
        if (reason !== WORKER_LOST) throw reason;
        if (attempt >= LOAD_ATTEMPTS) {
          throw new SandboxFault(
            "load",
            `${this.filename}: the QuickJS worker was stopped ${LOAD_ATTEMPTS} times while loading (other plugins overran their budget)`,
          );
        }
      }
    }
  }

  /** Arguments go in as JSON, like a hook's context (QuickJS has no structured clone). */
  call(name: string, args: unknown[]): Promise<unknown> {
    let json: string;
    try {
      json = argumentsJson(name, args);
    } catch (fault) {
      return Promise.reject(fault);
    }
    return this.callJson(name, json);
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
    if (this.#reloading)
      return this.#reloading.then(() => this.callJson(name, argsJson, lazy, deferred));
    const link = this.#link!;
    const call = this.#nextCall++;
    link.hold();
    const answer = new Promise((resolve, reject) => {
      this.#calls.set(call, { link, resolve, reject });
      link.post({
        t: "call",
        module: this.#id,
        call,
        name,
        args: argsJson,
        lazy: lazy && lazyRecord(lazy),
        deferred,
      });
    });
    // Most hooks answer within a millisecond: wait here rather than through the event loop.
    link.waitBriefly(() => !this.#calls.has(call));
    return answer;
  }

  heapUsed(): number {
    if (this.#dead) return 0;
    const now = performance.now();
    // The figure lives in the worker and this answer must be synchronous: ask for the next one.
    if (this.#link && !this.#reloading && now - this.#heapAskedAt > HEAP_REFRESH_MS) {
      this.#heapAskedAt = now;
      this.#link.post({ t: "heap", module: this.#id });
    }
    return this.#heap;
  }

  dispose(): void {
    if (this.#dead) return this.#detachWhenSettled();
    this.#dead = true;
    this.#services.stop("the plugin was unloaded");
    const fault = new SandboxFault("disposed", "the sandbox was disposed");
    this.#loading?.reject(fault);
    this.#failCalls(fault);
    this.#link?.post({ t: "dispose", module: this.#id });
    this.#link?.detach(this.#id);
  }

  receive(message: FromWorker): void {
    switch (message.t) {
      case "loaded":
        this.functions = new Set(message.functions.map(([name]) => name));
        this.arity = new Map(message.functions);
        this.values = Object.freeze(message.values);
        this.#heap = message.heap;
        return this.#loading?.resolve();
      case "loadFailed":
        return this.#loading?.reject(toFault(message.fault));
      case "result":
        return this.#settle(message);
      case "log":
        return this.#services.log(message.level, message.text);
      case "host":
        return this.#serve(message.request, message.name, message.args);
      case "heap":
        this.#heap = message.bytes;
        return;
      case "died":
        // The worker logged it; its failed calls follow, each with this fault.
        this.#die(toFault(message.fault));
        return this.#detachWhenSettled();
    }
  }

  lost(loss: WorkerLoss): void {
    this.#services.stop("the plugin's sandbox stopped");
    if (this.#dead) return this.#failCalls(this.#fault ?? disposedFault(this.#fault));
    if (loss.kind === "crashed") {
      const fault = new SandboxFault("disposed", `the QuickJS worker stopped: ${loss.reason}`);
      this.#services.log("error", `sandbox stopped: ${fault.message}`);
      this.#die(fault);
      this.#loading?.reject(new SandboxFault("load", `${this.filename}: ${fault.message}`));
      return this.#failCalls(fault);
    }
    if (loss.module === this.#id) {
      const fault = new SandboxFault(
        "timeout",
        `${this.filename}: a built-in call (a huge typed-array sort or BigInt computation, say) ran past the ` +
          `${this.#opts.limits.callTimeoutMs} ms call budget without yielding, so its QuickJS worker was stopped`,
      );
      this.#services.log("error", `sandbox stopped (timeout): ${fault.message}`);
      this.#die(fault);
      this.#loading?.reject(new SandboxFault("load", fault.message, { cause: fault }));
      return this.#failCalls(fault);
    }
    // An innocent bystander: back in a fresh worker, without a fault of its own.
    const why = `${loss.culprit} ran a built-in past its call budget, which stopped the QuickJS worker this plugin shared with it`;
    this.#failCalls(
      new SandboxFault("disposed", `the call was cut short: ${why}; the plugin was restarted`),
    );
    if (this.#loading) return this.#loading.reject(WORKER_LOST);
    this.#services.log(
      "warn",
      `restarted in a fresh QuickJS worker (module state starts over): ${why}`,
    );
    this.#reloading = this.boot().then(
      () => (this.#reloading = undefined),
      (fault: unknown) => {
        this.#reloading = undefined;
        const reason =
          fault instanceof SandboxFault ? fault : new SandboxFault("load", String(fault));
        this.#services.log("error", `sandbox stopped: could not be restarted: ${reason.message}`);
        this.#die(reason);
      },
    );
  }

  /** Loads the module into the shared worker; rejects with its load fault, or WORKER_LOST. */
  #loadInWorker(): Promise<void> {
    if (this.#dead) return Promise.reject(disposedFault(this.#fault));
    const link = sharedWorkerLink();
    this.#link = link;
    this.#id = link.attach(this);
    link.hold();
    const { code, limits, host } = this.#opts;
    return new Promise<void>((resolve, reject) => {
      this.#loading = { resolve, reject };
      link.post({
        t: "load",
        module: this.#id,
        filename: this.filename,
        code,
        limits,
        env: { ...host.env },
        exec: host.exec,
        dataDir: host.dataDir ?? "",
      });
    }).finally(() => {
      this.#loading = undefined;
      link.release();
    });
  }

  #settle(message: Extract<FromWorker, { t: "result" }>): void {
    const pending = this.#calls.get(message.call);
    if (!pending) return;
    this.#calls.delete(message.call);
    pending.link.release();
    if (message.ok) pending.resolve(message.value);
    else pending.reject(toFault(message.fault));
    if (this.#dead) this.#detachWhenSettled();
  }

  /** Runs a host service for the sandbox and sends the answer to the instance that asked. */
  #serve(request: number, name: string, args: unknown[]): void {
    const link = this.#link!;
    const module = this.#id;
    this.#services.serve(name, args, (answer) => {
      if (this.#dead || this.#link !== link || this.#id !== module) return;
      link.post({ t: "answer", module, request, ...answer });
    });
  }

  #die(fault: SandboxFault): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#fault = fault;
    this.#services.stop("the plugin's sandbox stopped");
  }

  #failCalls(fault: SandboxFault): void {
    const calls = [...this.#calls.values()];
    this.#calls.clear();
    for (const call of calls) {
      call.link.release();
      call.reject(fault);
    }
  }

  /** A dead module stays attached only until the results of its failed calls have come. */
  #detachWhenSettled(): void {
    if (this.#calls.size === 0 && !this.#loading) this.#link?.detach(this.#id);
  }
}
