/**
 * The host side of the prelude's services, shared by every backend: runs the services the
 * sandbox starts (timers here, everything else through HostCapabilities.call), and answers each
 * through the backend's `settle` entry. Everything arriving from the sandbox is untrusted and
 * checked here; nothing but strings, numbers and booleans goes back.
 */
import { TIMER_SERVICE } from "./prelude.ts";
import type { HostCapabilities, LogLevel } from "./types.ts";

/** Enters the sandbox to finish a service: ok with a JSON payload (or undefined), or a message. */
export type SettleEntry = (id: number, ok: boolean, payload: string | undefined) => void;

/** More than this many unfinished services (timers included) is a runaway plugin, not a feature. */
export const MAX_PENDING_SERVICES = 1_000;
/** Host calls (fetch, files, exec) in flight at once: each holds host resources (sockets, processes). */
export const MAX_HOST_CALLS_IN_FLIGHT = 64;

/** console lines: a burst, then a steady rate; the rest is counted and reported as dropped. */
const LOG_BURST = 500;
const LOG_LINES_PER_SECOND = 200;

const LOG_LEVELS: ReadonlySet<string> = new Set<LogLevel>([
  "debug",
  "log",
  "info",
  "warn",
  "error",
]);

export class HostBridge {
  readonly #host: HostCapabilities;
  readonly #settle: SettleEntry;
  // Aborts in-flight fetch/exec when the sandbox goes away.
  readonly #abort = new AbortController();
  // id → its timer (for timers) or null (host calls in flight).
  readonly #pending = new Map<number, NodeJS.Timeout | null>();
  #callsInFlight = 0;
  #logTokens = LOG_BURST;
  #logAt = performance.now();
  #logDropped = 0;

  constructor(host: HostCapabilities, settle: SettleEntry) {
    this.#host = host;
    this.#settle = settle;
  }

  get disposed(): boolean {
    return this.#abort.signal.aborted;
  }

  /** console output from the plugin, rate-limited so a logging loop cannot flood the host. */
  log(level: unknown, text: unknown): void {
    if (this.disposed) return;
    const now = performance.now();
    this.#logTokens = Math.min(
      LOG_BURST,
      this.#logTokens + ((now - this.#logAt) * LOG_LINES_PER_SECOND) / 1000,
    );
    this.#logAt = now;
    if (this.#logTokens < 1) {
      this.#logDropped++;
      return;
    }
    this.#logTokens--;
    if (this.#logDropped > 0) {
      this.notice(
        "warn",
        `${this.#logDropped} console lines dropped (more than ${LOG_LINES_PER_SECOND} a second)`,
      );
      this.#logDropped = 0;
    }
    this.notice(
      typeof level === "string" && LOG_LEVELS.has(level) ? (level as LogLevel) : "log",
      String(text),
    );
  }

  /** A line for the plugin's log from the host itself (faults), never rate-limited. */
  notice(level: LogLevel, text: string): void {
    try {
      this.#host.log(level, text);
    } catch {
      // a failing log sink must not turn into an exception inside the plugin
    }
  }

  start(id: unknown, name: unknown, argsJson: unknown): void {
    if (this.disposed || typeof id !== "number") return;
    if (this.#pending.size >= MAX_PENDING_SERVICES) {
      this.#later(id, `more than ${MAX_PENDING_SERVICES} timers and host calls are pending`);
      return;
    }
    let args: unknown;
    try {
      args = JSON.parse(String(argsJson));
    } catch {
      args = undefined;
    }
    if (typeof name !== "string" || !Array.isArray(args)) {
      this.#later(id, "malformed host call");
      return;
    }
    if (name === TIMER_SERVICE) this.#startTimer(id, Number(args[0]));
    else this.#startCall(id, name, args);
  }

  /** Forgets a service: a cleared timer stops; a host call's answer is dropped. */
  cancel(id: unknown): void {
    if (typeof id !== "number") return;
    const timer = this.#pending.get(id);
    if (timer) clearTimeout(timer);
    this.#pending.delete(id);
  }

  dispose(): void {
    if (this.disposed) return;
    this.#abort.abort(new Error("the plugin was unloaded"));
    for (const timer of this.#pending.values()) if (timer) clearTimeout(timer);
    this.#pending.clear();
  }

  #startTimer(id: number, delayMs: number): void {
    const timer = setTimeout(
      () => {
        if (this.#pending.delete(id)) this.#settle(id, true, undefined);
      },
      Number.isFinite(delayMs) ? Math.max(0, delayMs) : 0,
    );
    // A plugin's timer alone must not keep the host process alive (an awaited one is covered by
    // the pending call's deadline timer).
    timer.unref();
    this.#pending.set(id, timer);
  }

  #startCall(id: number, name: string, args: unknown[]): void {
    if (this.#callsInFlight >= MAX_HOST_CALLS_IN_FLIGHT) {
      this.#later(
        id,
        `more than ${MAX_HOST_CALLS_IN_FLIGHT} host calls (fetch, files, exec) are in flight`,
      );
      return;
    }
    this.#callsInFlight++;
    this.#pending.set(id, null);
    let answer: Promise<unknown>;
    try {
      answer = this.#host.call(name, args, this.#abort.signal);
    } catch (error) {
      answer = Promise.reject(error);
    }
    void answer
      .finally(() => this.#callsInFlight--)
      .then(
        (value) => {
          if (!this.#pending.delete(id)) return;
          let json: string | undefined;
          try {
            json = value === undefined ? undefined : JSON.stringify(value);
          } catch {
            this.#settle(id, false, `host service ${name} returned something that is not JSON`);
            return;
          }
          this.#settle(id, true, json);
        },
        (error: unknown) => {
          if (this.#pending.delete(id)) this.#settle(id, false, messageOf(error));
        },
      );
  }

  // Answers asynchronously: the sandbox is mid-entry when it starts a service.
  #later(id: number, message: string): void {
    queueMicrotask(() => {
      if (!this.disposed) this.#settle(id, false, message);
    });
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
