/**
 * One runtime process and the calls it serves: the typed channel (every message checked against
 * protocol.ts), the start limit, the heartbeat watchdog and each call's first-token and idle
 * limits. A failure ends every call in flight with the same RuntimeFailure.
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
import { RuntimeFailure } from "./runtime-failure.ts";
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

const DEFAULT_HANG_MS = 15_000;
const DEFAULT_START_MS = 60_000;
const STDERR_TAIL = 4096;

/** Beside this file when Node runs the sources; out/main/local-runtime.js in the Electron bundle. */
const ENTRIES = ["./runtime/main.ts", "./local-runtime.js", "../local-runtime.js"];

/**
 * The llama.cpp binary a runtime of this engine loaded, per GPU choice: later runtimes load it
 * without node-llama-cpp's compatibility test (runtime/proven-binary.ts).
 */
const provenBinaries = new Map<string, { addon: string; metadata: string }>();

function entry(): string {
  for (const name of ENTRIES) {
    const file = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(file)) return file;
  }
  throw new RuntimeFailure("start", `the runtime script is missing (${ENTRIES.join(", ")})`);
}

export interface Call {
  push(event: CallEvent): void;
  fail(err: RuntimeFailure): void;
  limits: CallLimits;
  started: number;
  lastEventAt: number;
  answered: boolean;
}

/** One runtime process and the calls it is serving. */
export class Proc {
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
    const gpu = String(opts.gpu ?? "auto");
    const binary = provenBinaries.get(gpu);
    const args = JSON.stringify({
      gpu: opts.gpu ?? "auto",
      ...(binary ? { binary } : {}),
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
        if (m.binary) provenBinaries.set(gpu, m.binary);
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
