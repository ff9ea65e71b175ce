/**
 * The host thread's side of a QuickJS plugin's capabilities, the counterpart of
 * worker-host.ts: runs the services the worker asks for with the real HostCapabilities
 * (files, sockets and processes stay on this thread) and answers with JSON text, as the worker's
 * HostBridge expects.
 */
import { messageOf } from "../host-bridge.ts";
import type { HostCapabilities, LogLevel } from "../types.ts";

export type ServiceAnswer = { ok: true; json: string | undefined } | { ok: false; message: string };

export class HostServer {
  readonly #host: HostCapabilities;
  /** Aborts the services (fetch, exec) of the module instance that started them. */
  #abort = new AbortController();

  constructor(host: HostCapabilities) {
    this.#host = host;
  }

  log(level: LogLevel, text: string): void {
    try {
      this.#host.log(level, text);
    } catch {
      // a failing log sink must not break the proxy
    }
  }

  serve(name: string, args: unknown[], reply: (answer: ServiceAnswer) => void): void {
    let answer: Promise<unknown>;
    try {
      answer = this.#host.call(name, args, this.#abort.signal);
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (value) => {
        let json: string | undefined;
        try {
          json = value === undefined ? undefined : JSON.stringify(value);
        } catch {
          return reply({
            ok: false,
            message: `host service ${name} returned something that is not JSON`,
          });
        }
        reply({ ok: true, json });
      },
      (error: unknown) => reply({ ok: false, message: messageOf(error) }),
    );
  }

  /** The instance that started the services in flight is gone: they stop; new ones start afresh. */
  stop(why: string): void {
    this.#abort.abort(new Error(why));
    this.#abort = new AbortController();
  }
}
