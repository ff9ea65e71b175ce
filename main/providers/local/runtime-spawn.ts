/**
 * How the runtime process is started. Under Node (the CLI, `islet serve`, tests): Node's fork with
 * an IPC channel. The desktop app cannot run its own binary as Node (the runAsNode fuse is off),
 * so main/electron registers Electron's utility process instead (setRuntimeSpawner).
 */
import { fork } from "node:child_process";

/** A started runtime process, whatever started it. */
export interface RuntimeChild {
  readonly pid: number | undefined;
  readonly connected: boolean;
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  onStderr(listener: (text: string) => void): void;
  onError(listener: (err: Error) => void): void;
  /** Ends it at once (SIGKILL): a hung or misbehaving runtime. */
  kill(): void;
  /** Asks it to exit (it exits when its channel closes). */
  close(): void;
  /** Whether it keeps the engine's process alive (only while calls run). */
  hold(on: boolean): void;
}

export type RuntimeSpawner = (script: string, args: string[]) => RuntimeChild;

export const nodeSpawner: RuntimeSpawner = (script, args) => {
  const child = fork(script, args, {
    execArgv: [],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "json",
  });
  child.stderr?.setEncoding("utf8");
  const channel = () => child.channel as { ref?: () => void; unref?: () => void } | undefined;
  return {
    get pid() {
      return child.pid;
    },
    get connected() {
      return child.connected;
    },
    send: (message) => {
      if (child.connected) child.send(message as object);
    },
    onMessage: (listener) => void child.on("message", listener),
    onExit: (listener) => void child.on("exit", listener),
    onStderr: (listener) => void child.stderr?.on("data", listener),
    onError: (listener) => void child.on("error", listener),
    kill: () => void child.kill("SIGKILL"),
    close: () => {
      if (child.connected) child.disconnect();
    },
    hold: (on) => {
      if (on) {
        child.ref();
        channel()?.ref?.();
      } else {
        child.unref();
        channel()?.unref?.();
      }
    },
  };
};

let current: RuntimeSpawner = nodeSpawner;

/** The desktop app's host sets Electron's utility process here before the engine starts. */
export function setRuntimeSpawner(spawner: RuntimeSpawner): void {
  current = spawner;
}

export function runtimeSpawner(): RuntimeSpawner {
  return current;
}
