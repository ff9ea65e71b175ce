/**
 * The host thread's end of the QuickJS worker (worker.ts). One worker serves every
 * QuickJS plugin of the process: a worker with QuickJS loaded costs ~20 MB, a plugin in it a
 * fraction of one (its own WASM instance, ~0.3 MB resident when idle).
 * It starts with the first load; the link routes messages to the module proxies (sandbox.ts),
 * keeps the process alive only while someone waits for the worker (plugin timers alone do not,
 * as on the host thread before), and runs the watchdog (watchdog.ts) that terminates the
 * worker when an entry overruns. A lost worker is never reused: the next load starts a new one.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { messageOf } from "../host-bridge.ts";
import type { FromWorker, ToWorker } from "./protocol.ts";
import { openChannel, type HostSide } from "./channel.ts";
import { EntryWatcher, entrySlots, WATCH_TICK_MS } from "./watchdog.ts";
import { SandboxFault } from "../types.ts";

/** Why a worker is gone: one module's entry overran (the watchdog stopped it), or it crashed. */
export type WorkerLoss =
  { kind: "overrun"; module: number; culprit: string } | { kind: "crashed"; reason: string };

/** A module proxy as the link sees it. */
export interface LinkedModule {
  /** Named in the messages of the other modules when this one's overrun stops the worker. */
  readonly filename: string;
  receive(message: FromWorker): void;
  /** The worker is gone, with everything in it (the link has forgotten the module already). */
  lost(loss: WorkerLoss): void;
}

/**
 * Where the worker entry is: next to this file when Node runs the sources (.ts, type stripping);
 * in the Electron bundle, out/main/quickjs-worker.js (its own input in electron.vite.config.ts),
 * beside this code or one level up when the bundler put this code in out/main/chunks/. The names
 * go through a variable so that the bundler does not take `new URL(…, import.meta.url)` for an
 * asset to copy.
 */
const WORKER_ENTRIES = ["./worker.ts", "./quickjs-worker.js", "../quickjs-worker.js"];

function workerEntry(): URL {
  for (const name of WORKER_ENTRIES) {
    const url = new URL(name, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  throw new SandboxFault(
    "load",
    `the QuickJS worker script is missing (${WORKER_ENTRIES.join(", ")} from ${import.meta.url})`,
  );
}

let current: QuickJsWorkerLink | undefined;

/** The worker every QuickJS module goes to; a new one when there is none or it was lost. */
export function sharedWorkerLink(): QuickJsWorkerLink {
  if (!current || current.lost) current = new QuickJsWorkerLink();
  return current;
}

/**
 * A worker left without modules this long is stopped (it holds ~20 MB); the next load starts a
 * new one. Long enough that a reload, or one runtime replacing another, keeps the same worker.
 */
export const IDLE_RETIRE_MS = 1_000;

/** How long the host thread may wait for a call's result itself (see channel.ts). */
const WAIT_BRIEFLY_MS = 1;

export class QuickJsWorkerLink {
  readonly #worker: Worker;
  readonly #channel: HostSide;
  readonly #watcher: EntryWatcher;
  readonly #modules = new Map<number, LinkedModule>();
  #nextModule = 1;
  #waiting = 0;
  #misses = 0;
  #skipWaits = 0;
  #tick?: NodeJS.Timeout;
  #idle?: NodeJS.Timeout;
  #lost = false;

  constructor() {
    const entries = entrySlots();
    this.#watcher = new EntryWatcher(entries);
    const { host, workerEnd } = openChannel((message) =>
      this.#modules.get(message.module)?.receive(message),
    );
    this.#channel = host;
    this.#worker = new Worker(workerEntry(), {
      name: "islet-quickjs",
      workerData: { entries, channel: workerEnd },
      transferList: [workerEnd.port],
      // Plugins get their environment as data (HostCapabilities.env); the worker needs none.
      env: {},
      // The host thread's stack depth (V8's ~1 MB; Node keeps 192 KB of a worker's stack in
      // reserve), which setup.ts's STACK_BYTES is sized against. A worker's default
      // (4 MB) lets native recursion QuickJS does not count run on for seconds.
      resourceLimits: { stackSizeMb: 1.2 },
    });
    // The channel keeps the process alive while someone waits (hold); the worker never does.
    this.#worker.unref();
    this.#worker.on("error", (error) => this.#lose({ kind: "crashed", reason: messageOf(error) }));
    this.#worker.on("exit", (code) =>
      this.#lose({ kind: "crashed", reason: `the worker exited (code ${code})` }),
    );
  }

  get lost(): boolean {
    return this.#lost;
  }

  /** Registers a module proxy; returns its number in this worker. */
  attach(module: LinkedModule): number {
    const id = this.#nextModule++;
    this.#modules.set(id, module);
    clearTimeout(this.#idle);
    // Watch only while there are modules: an idle app is not woken ten times a second for nothing.
    if (!this.#tick && !this.#lost) {
      this.#tick = setInterval(() => this.#check(), WATCH_TICK_MS);
      this.#tick.unref();
    }
    return id;
  }

  detach(id: number): void {
    this.#modules.delete(id);
    if (this.#modules.size === 0) {
      clearInterval(this.#tick);
      this.#tick = undefined;
      this.#idle = setTimeout(() => this.#retire(), IDLE_RETIRE_MS);
      this.#idle.unref();
    }
  }

  /** Stops a worker nobody uses; `lost` makes the next load start a fresh one. */
  #retire(): void {
    if (this.#modules.size > 0 || this.#lost) return;
    this.#lost = true;
    this.#worker.terminate().catch(() => {});
    this.#channel.close();
  }

  post(message: ToWorker): void {
    if (!this.#lost) this.#channel.post(message);
  }

  /** Someone waits for an answer from the worker: the process stays alive until release(). */
  hold(): void {
    if (this.#waiting++ === 0 && !this.#lost) this.#channel.ref();
  }

  release(): void {
    if (--this.#waiting === 0 && !this.#lost) this.#channel.unref();
  }

  /**
   * After posting a call: waits on this thread, for a millisecond at most, until `done()`. Only
   * when that call is all the link waits for — others may need the event loop meanwhile (their
   * host services are answered from it) — and not right after waits that did not pay.
   */
  waitBriefly(done: () => boolean): void {
    if (this.#waiting !== 1 || this.#lost) return;
    if (this.#skipWaits > 0) {
      this.#skipWaits--;
      return;
    }
    const until = performance.now() + WAIT_BRIEFLY_MS;
    while (!done()) {
      const left = until - performance.now();
      if (left <= 0 || !this.#channel.takeNext(left)) {
        // Waiting did not pay (slow calls, or a busy machine where the worker needs this CPU):
        // skip the next ones, more of them after each miss in a row.
        this.#misses = Math.min(this.#misses + 1, 6);
        this.#skipWaits = 2 ** this.#misses;
        return;
      }
    }
    this.#misses = 0;
  }

  #check(): void {
    const overrun = this.#watcher.check();
    if (!overrun) return;
    const culprit = this.#modules.get(overrun.module)?.filename ?? "a plugin unloaded meanwhile";
    this.#lose({ kind: "overrun", module: overrun.module, culprit });
  }

  #lose(loss: WorkerLoss): void {
    if (this.#lost) return;
    this.#lost = true;
    clearInterval(this.#tick);
    this.#tick = undefined;
    // V8 stops WASM as it stops JavaScript: the overrunning built-in ends with the thread.
    this.#worker.terminate().catch(() => {});
    this.#channel.close();
    const modules = [...this.#modules.values()];
    this.#modules.clear();
    for (const module of modules) module.lost(loss);
  }
}
