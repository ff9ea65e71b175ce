/**
 * The embedded model runtime in an Electron utility process: the packaged app cannot run its own
 * binary as Node (the runAsNode fuse is off), and a utility process is Chromium's own way to host
 * code that may crash. Same messages as Node's fork (main/providers/local/runtime-spawn.ts).
 */
import { utilityProcess } from "electron";
import type { RuntimeChild, RuntimeSpawner } from "../providers/local/runtime-spawn.ts";

export const utilityRuntimeSpawner: RuntimeSpawner = (script, args) => {
  const child = utilityProcess.fork(script, args, {
    serviceName: "Islet model runtime",
    stdio: ["ignore", "ignore", "pipe"],
  });
  let exited = false;
  child.once("exit", () => (exited = true));
  child.stderr?.setEncoding("utf8");
  const runtime: RuntimeChild = {
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
    // A utility process reports only its exit code; a signal shows as the code.
    onExit: (listener) => void child.on("exit", (code: number) => listener(code, null)),
    onStderr: (listener) => void child.stderr?.on("data", listener),
    onError: (listener) =>
      void child.on("error", (type: string, location: string) =>
        listener(new Error(`${type} at ${location}`)),
      ),
    kill: () => {
      if (child.pid !== undefined) process.kill(child.pid, "SIGKILL");
    },
    close: () => void child.kill(),
    // The app stays up anyway; a utility process never holds it open.
    hold: () => undefined,
  };
  return runtime;
};
