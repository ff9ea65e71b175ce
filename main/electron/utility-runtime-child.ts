/**
 * Electron's utility process as the local runtime's RuntimeChild (runtime-spawn.ts): the same
 * contract as Node's fork, so LocalRuntime cannot tell them apart. Apart from the spawner
 * (local-runtime-spawn.ts) so that it runs, and is tested, without the Electron binary.
 */
import type { RuntimeChild } from "../providers/local/runtime-spawn.ts";

/** What the adapter uses of Electron's UtilityProcess. */
export interface UtilityChild {
  readonly pid: number | undefined;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  /** Asks it to end (SIGTERM). */
  kill(): boolean;
  on(event: "message", listener: (message: unknown) => void): unknown;
  /** A utility process reports only its exit code; a signal shows as the code. */
  on(event: "exit", listener: (code: number) => void): unknown;
  on(event: "error", listener: (type: string, location: string) => void): unknown;
  once(event: "exit", listener: (code: number) => void): unknown;
}

export function runtimeChildOf(child: UtilityChild): RuntimeChild {
  let exited = false;
  child.once("exit", () => (exited = true));
  child.stderr?.setEncoding("utf8");
  return {
    get pid() {
      return child.pid;
    },
    get connected() {
      return !exited;
    },
    send: (message) => {
      if (!exited) child.postMessage(message);
    },
    onMessage: (listener) => void child.on("message", listener),
    onExit: (listener) => void child.on("exit", (code) => listener(code, null)),
    onStderr: (listener) =>
      void child.stderr?.on("data", (chunk: string | Buffer) => listener(String(chunk))),
    onError: (listener) =>
      void child.on("error", (type, location) => listener(new Error(`${type} at ${location}`))),
    kill: () => {
      if (child.pid !== undefined && !exited) process.kill(child.pid, "SIGKILL");
    },
    close: () => void child.kill(),
    // The app stays up anyway; a utility process never holds it open.
    hold: () => undefined,
  };
}
