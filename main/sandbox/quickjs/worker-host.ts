/**
 * HostCapabilities inside the QuickJS worker: the real ones stay on the host thread (they open
 * files, sockets and processes there), so log lines and service calls become messages, and the
 * answers come back as messages. env and exec are plain data, copied at load.
 */
import type { FromWorker } from "./protocol.ts";
import type { HostCapabilities, LogLevel } from "../types.ts";

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class PortHost implements HostCapabilities {
  readonly env: Readonly<Record<string, string>>;
  readonly exec: boolean;
  readonly dataDir: string;
  readonly #module: number;
  readonly #post: (message: FromWorker) => void;
  readonly #waiting = new Map<number, Waiting>();
  #nextRequest = 1;

  constructor(
    module: number,
    post: (message: FromWorker) => void,
    data: { env: Record<string, string>; exec: boolean; dataDir: string },
  ) {
    this.#module = module;
    this.#post = post;
    this.env = Object.freeze({ ...data.env });
    this.exec = data.exec;
    this.dataDir = data.dataDir;
  }

  log(level: LogLevel, text: string): void {
    this.#post({ t: "log", module: this.#module, level, text });
  }

  /**
   * The signal is not forwarded: it aborts only when this module stops, and the host side then
   * aborts every service of the module itself (it hears of the stop, or caused it).
   */
  call(name: string, args: unknown[]): Promise<unknown> {
    const request = this.#nextRequest++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(request, { resolve, reject });
      this.#post({ t: "host", module: this.#module, request, name, args });
    });
  }

  /** The host thread's answer to `request`. */
  answer(request: number, ok: boolean, payload: string | undefined): void {
    const waiting = this.#waiting.get(request);
    if (!waiting) return;
    this.#waiting.delete(request);
    if (!ok) waiting.reject(new Error(payload));
    else waiting.resolve(payload === undefined ? undefined : JSON.parse(payload));
  }

  /** The module is gone: answers still on their way are dropped (HostBridge ignores them too). */
  dispose(): void {
    this.#waiting.clear();
  }
}
