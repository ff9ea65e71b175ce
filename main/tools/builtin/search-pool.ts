/**
 * Grep and Glob search in worker threads: JavaScript's RegExp (and the regular expressions glob
 * patterns become) backtracks on the calling thread, and `^(a+)+$` on 34 `a`s and a `!` runs for
 * minutes (ENGINEERING §9). On the engine's thread that would freeze it and deafen it to Ctrl-C;
 * in a worker, a timeout or an abort terminates the worker (V8 stops even a regex in the middle).
 *
 * Up to MAX_WORKERS searches run at once (parallel tool calls), each alone in its worker, so a
 * runaway never holds up an ordinary search; further ones wait their turn. A worker is reused
 * (ordinary searches pay no start-up) and stopped after IDLE_RETIRE_MS without work; idle
 * workers never keep the process alive.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ToolError } from "../types.ts";
import type { GlobJob } from "./glob-search.ts";
import type { GrepJob } from "./grep-search.ts";

export type SearchJob = { kind: "grep"; args: GrepJob } | { kind: "glob"; args: GlobJob };
export type SearchAnswer =
  { ok: true; output: string } | { ok: false; message: string; toolError: boolean };

const MAX_WORKERS = 2;
const IDLE_RETIRE_MS = 10_000;
/** A search holding more than this (huge lines, a regex's backtracking stack) is stopped. */
const WORKER_HEAP_MB = 512;

/**
 * Next to this file when Node runs the sources; in the Electron bundle, out/main/search-worker.js
 * (its own input in electron.vite.config.ts), beside this code or one level up from chunks/.
 * The names go through a variable so that the bundler does not take them for assets.
 */
const WORKER_ENTRIES = ["./search-worker.ts", "./search-worker.js", "../search-worker.js"];

function workerEntry(): URL {
  for (const name of WORKER_ENTRIES) {
    const url = new URL(name, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  throw new ToolError(`the search worker script is missing (${WORKER_ENTRIES.join(", ")})`);
}

interface Parked {
  worker: Worker;
  retire: NodeJS.Timeout;
  gone: () => void;
}
const idle: Parked[] = [];
let running = 0;
const waiting: (() => void)[] = [];

/** Runs a search in a worker; rejects with `signal.reason` once the worker is gone after an abort. */
export async function runSearch(job: SearchJob, signal: AbortSignal): Promise<string> {
  await slot(signal);
  let worker: Worker;
  try {
    worker = take();
  } catch (err) {
    release();
    throw err;
  }
  return new Promise<string>((resolve, reject) => {
    const done = (keep: boolean): void => {
      signal.removeEventListener("abort", onAbort);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      if (keep) park(worker);
      else void worker.terminate();
      release();
    };
    const onMessage = (answer: SearchAnswer): void => {
      done(true);
      if (answer.ok) resolve(answer.output);
      else reject(answer.toolError ? new ToolError(answer.message) : new Error(answer.message));
    };
    const onError = (err: Error): void => {
      done(false);
      reject(new ToolError(`the search failed: ${err.message}`));
    };
    const onExit = (code: number): void => {
      done(false);
      reject(new ToolError(`the search worker stopped (exit code ${code})`));
    };
    const onAbort = (): void => {
      signal.removeEventListener("abort", onAbort);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      // Answer once the worker (and the regex running in it) is really gone.
      void worker.terminate().finally(() => {
        release();
        reject(signal.reason);
      });
    };
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    signal.addEventListener("abort", onAbort, { once: true });
    worker.ref();
    worker.postMessage(job);
  });
}

/** Waits until fewer than MAX_WORKERS searches run (or the call is aborted while waiting). */
function slot(signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  if (running < MAX_WORKERS) {
    running++;
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    const go = (): void => {
      signal.removeEventListener("abort", onAbort);
      running++;
      resolve();
    };
    const onAbort = (): void => {
      waiting.splice(waiting.indexOf(go), 1);
      reject(signal.reason);
    };
    waiting.push(go);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function release(): void {
  running--;
  waiting.shift()?.();
}

function take(): Worker {
  const parked = idle.pop();
  if (parked) {
    clearTimeout(parked.retire);
    parked.worker.off("error", parked.gone).off("exit", parked.gone);
    return parked.worker;
  }
  return new Worker(workerEntry(), {
    name: "islet-search",
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
}

function park(worker: Worker): void {
  worker.unref();
  const forget = (): void => {
    const at = idle.indexOf(entry);
    if (at >= 0) idle.splice(at, 1);
    clearTimeout(entry.retire);
  };
  const entry: Parked = {
    worker,
    retire: setTimeout(() => {
      forget();
      void worker.terminate();
    }, IDLE_RETIRE_MS).unref(),
    // A parked worker that dies is simply not reused.
    gone: forget,
  };
  worker.on("error", entry.gone).on("exit", entry.gone);
  idle.push(entry);
}
