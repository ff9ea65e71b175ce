/**
 * The engine's side of the local runtime: starts the runtime process when a call needs it, keeps
 * it (and its loaded model) between calls, and stops it after `unloadAfterMs` without calls. A
 * crash, an out-of-memory kill, an unreadable message or a hang (no heartbeat for `hangMs`, or a
 * generation past its first-token / idle limit) ends the calls in flight with one line saying
 * what happened; the next call starts a fresh process.
 *
 * While idle, neither the process nor its channel keeps the engine alive.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  fromRuntime,
  toRuntime,
  HEARTBEAT_MS,
  type ChatCall,
  type FromRuntime,
  type ToRuntime,
} from "./protocol.ts";
import { RuntimeFailure, type RuntimeFailureKind } from "./runtime-failure.ts";
import { runtimeSpawner, type RuntimeChild } from "./runtime-spawn.ts";

export interface LocalRuntimeOptions {
  /** CPU threads for generation (default: node-llama-cpp's choice, the machine's math cores). */
  threads?: number;
  /** "auto": Metal, CUDA or Vulkan where present; false: CPU only. */
  gpu?: "auto" | false;
  /** Read the model through mmap (node-llama-cpp's default) or into allocated memory. */
  useMmap?: boolean;
  /** Idle time after the last call before the process and its model are unloaded. */
  unloadAfterMs?: number;
  /** Silence (no heartbeat) after which the process counts as hung. */
  hangMs?: number;
  /** Until the process reports ready (node-llama-cpp's binary loaded). */
  startMs?: number;
}

/** Limits of one call; a limit that fires stops the process (a stuck generation cannot be cancelled). */
export interface CallLimits {
  firstTokenMs: number;
  idleMs: number;
}

export type CallEvent = Exclude<FromRuntime, { type: "ready" | "heartbeat" }>;
export type CallRequest = Omit<ChatCall, "type" | "id">;

export const DEFAULT_UNLOAD_AFTER_MS = 5 * 60_000;
const DEFAULT_HANG_MS = 15_000;
const DEFAULT_START_MS = 60_000;
const STDERR_TAIL = 4096;

/** Beside this file when Node runs the sources; out/main/local-runtime.js in the Electron bundle. */
const ENTRIES = ["./runtime/main.ts", "./local-runtime.js", "../local-runtime.js"];

function entry(): string {
  for (const name of ENTRIES) {
    const file = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(file)) return file;
  }
  throw new RuntimeFailure("start", `the runtime script is missing (${ENTRIES.join(", ")})`);
}

interface Call {
  push(event: CallEvent): void;
  fail(err: RuntimeFailure): void;
  limits: CallLimits;
  started: number;
  lastEventAt: number;
  answered: boolean;
}

/** One runtime process and the calls it is serving. */
class Proc {
  readonly child: RuntimeChild;
  readonly calls = new Map<number, Call>();
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  pid = 0;
  gpu = "";
  private stderr = "";
  private lastMessageAt = performance.now();
  private dead: RuntimeFailure | undefined;
  private gone = false;
  private readonly watchdog: NodeJS.Timeout;

  constructor(opts: LocalRuntimeOptions, onGone: (p: Proc) => void) {
    const args = JSON.stringify({
      gpu: opts.gpu ?? "auto",
      ...(opts.threads ? { threads: opts.threads } : {}),
      ...(opts.useMmap !== undefined ? { useMmap: opts.useMmap } : {}),
    });
    this.child = runtimeSpawner()(entry(), [args]);
    this.child.onStderr((s) => {
      this.stderr = (this.stderr + s).slice(-STDERR_TAIL);
    });
    let readyResolve: () => void = () => undefined;
    let readyReject: (err: RuntimeFailure) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    this.ready.catch(() => undefined);
    const startLimit = opts.startMs ?? DEFAULT_START_MS;
    const startTimer = setTimeout(
      () =>
        this.kill(
          new RuntimeFailure("start", `it did not start within ${Math.round(startLimit / 1000)} s`),
        ),
      startLimit,
    );
    this.child.onMessage((raw) => {
      this.lastMessageAt = performance.now();
      const parsed = fromRuntime.safeParse(raw);
      if (!parsed.success) {
        this.kill(
          new RuntimeFailure(
            "protocol",
            `it sent an unreadable message (${parsed.error.issues[0]?.message})`,
          ),
        );
        return;
      }
      const m = parsed.data;
      if (m.type === "ready") {
        clearTimeout(startTimer);
        this.pid = m.pid;
        this.gpu = m.gpu;
        readyResolve();
      } else if (m.type !== "heartbeat") {
        const call = this.calls.get(m.id);
        if (!call) return;
        call.lastEventAt = performance.now();
        if (m.type !== "started") call.answered = true;
        call.push(m);
      }
    });
    this.exited = new Promise<void>((resolve) => {
      this.child.onExit((code, signal) => {
        this.gone = true;
        clearTimeout(startTimer);
        clearInterval(this.watchdog);
        const why = this.dead ?? RuntimeFailure.fromExit(code, signal, this.stderr);
        this.dead = why;
        readyReject(why);
        for (const call of this.calls.values()) call.fail(why);
        this.calls.clear();
        onGone(this);
        resolve();
      });
    });
    this.child.onError((err) => this.kill(new RuntimeFailure("start", err.message)));
    const hangMs = opts.hangMs ?? DEFAULT_HANG_MS;
    this.watchdog = setInterval(() => this.check(hangMs), Math.min(HEARTBEAT_MS, hangMs / 2));
    this.watchdog.unref();
  }

  get alive(): boolean {
    return this.dead === undefined && !this.gone;
  }

  private check(hangMs: number): void {
    const now = performance.now();
    // Before "ready", the start limit applies (loading node-llama-cpp sends no heartbeat).
    if (this.pid === 0) return;
    if (this.calls.size > 0 && now - this.lastMessageAt > hangMs) {
      this.kill(
        new RuntimeFailure(
          "hang",
          `it stopped responding for ${Math.round((now - this.lastMessageAt) / 1000)} s`,
        ),
      );
      return;
    }
    for (const call of this.calls.values()) {
      if (!call.answered && now - call.started > call.limits.firstTokenMs) {
        this.kill(RuntimeFailure.limit("first_token", call.limits.firstTokenMs));
        return;
      }
      if (call.answered && now - call.lastEventAt > call.limits.idleMs) {
        this.kill(RuntimeFailure.limit("idle", call.limits.idleMs));
        return;
      }
    }
  }

  send(message: ToRuntime): void {
    if (!this.alive || !this.child.connected) return;
    this.child.send(toRuntime.parse(message));
  }

  /** Holds the engine open only while calls run. */
  hold(on: boolean): void {
    this.child.hold(on);
  }

  kill(why: RuntimeFailure): void {
    if (this.dead) return;
    this.dead = why;
    this.child.kill();
  }

  /** Asks the process to exit (it exits when the channel closes); kills it if it does not. */
  async stop(): Promise<void> {
    if (!this.alive) return this.exited;
    this.dead = new RuntimeFailure("unloaded", "it was unloaded");
    this.child.close();
    const timer = setTimeout(() => this.child.kill(), 3000);
    await this.exited;
    clearTimeout(timer);
  }
}

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
