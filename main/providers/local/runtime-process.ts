/**
 * The engine's side of the local runtime: starts the runtime process when a call needs it, keeps
 * it (and its loaded model) between calls, and stops it after `unloadAfterMs` without calls. A
 * crash, an out-of-memory kill, an unreadable message or a hang (no heartbeat for `hangMs`, or a
 * generation past its first-token / idle limit) ends the calls in flight with one line saying
 * what happened; the next call starts a fresh process.
 *
 * While idle, neither the process nor its channel keeps the engine alive.
 */
import {
  Proc,
  type Call,
  type CallEvent,
  type CallLimits,
  type CallRequest,
  type LocalRuntimeOptions,
} from "./runtime-proc.ts";
import { RuntimeFailure, type RuntimeFailureKind } from "./runtime-failure.ts";

export type { CallEvent, CallLimits, CallRequest, LocalRuntimeOptions };

export const DEFAULT_UNLOAD_AFTER_MS = 5 * 60_000;

export class LocalRuntime {
  private readonly opts: LocalRuntimeOptions;
  private proc: Proc | undefined;
  private nextId = 1;
  private unloadTimer: NodeJS.Timeout | undefined;

  constructor(opts: LocalRuntimeOptions = {}) {
    this.opts = opts;
  }

  /** The runtime's process id, while one runs. */
  get pid(): number | undefined {
    return this.proc?.alive ? this.proc.child.pid : undefined;
  }

  private start(): Proc {
    if (this.proc?.alive) return this.proc;
    const proc = new Proc(this.opts, (p) => {
      if (this.proc === p) this.proc = undefined;
    });
    this.proc = proc;
    return proc;
  }

  /**
   * Starts the process before a call needs it (node-llama-cpp's start then overlaps the user
   * writing the prompt). It does not keep the engine alive, and exits after the idle time if no
   * call comes.
   */
  prestart(): void {
    if (this.proc?.alive) return;
    this.settle(this.start());
  }

  /** Streams one call's events; ends after `done`, throws RuntimeFailure, or the signal's reason. */
  async *chat(
    request: CallRequest,
    limits: CallLimits,
    signal?: AbortSignal,
  ): AsyncGenerator<CallEvent> {
    signal?.throwIfAborted();
    clearTimeout(this.unloadTimer);
    const proc = this.start();
    const id = this.nextId++;
    const queue: CallEvent[] = [];
    let failure: RuntimeFailure | undefined;
    let wake: (() => void) | undefined;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    const call: Call = {
      push: (e) => (queue.push(e), notify()),
      fail: (err) => ((failure = err), notify()),
      limits,
      started: performance.now(),
      lastEventAt: performance.now(),
      answered: false,
    };
    let finished = false;
    proc.calls.set(id, call);
    proc.hold(true);
    const onAbort = () => {
      proc.send({ type: "stop", id });
      notify();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await Promise.race([
        proc.ready,
        new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true })),
      ]);
      signal?.throwIfAborted();
      proc.send({ type: "chat", id, ...request });
      for (;;) {
        while (queue.length > 0) {
          const event = queue.shift()!;
          if (event.type === "failed") {
            finished = true;
            throw RuntimeFailure.fromReport(event.kind, event.message);
          }
          if (event.type === "done") finished = true;
          yield event;
          if (finished) return;
        }
        if (failure) throw failure;
        signal?.throwIfAborted();
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      proc.calls.delete(id);
      // Left early (Stop, or the consumer stopped reading): the runtime stops generating too.
      if (!finished && !signal?.aborted) proc.send({ type: "stop", id });
      this.settle(proc);
    }
  }

  private settle(proc: Proc): void {
    if (proc.calls.size > 0 || !proc.alive) return;
    proc.hold(false);
    clearTimeout(this.unloadTimer);
    this.unloadTimer = setTimeout(
      () => void this.unload(),
      this.opts.unloadAfterMs ?? DEFAULT_UNLOAD_AFTER_MS,
    );
    this.unloadTimer.unref();
  }

  /** Stops the process now (its model is unloaded with it). */
  async unload(): Promise<void> {
    clearTimeout(this.unloadTimer);
    const proc = this.proc;
    this.proc = undefined;
    await proc?.stop();
  }
}

export type { RuntimeFailureKind };
