/**
 * The downloads running in this engine (the app's Download buttons): at most one per model,
 * each cancellable, each change reported to one listener (the bridge sends it to every
 * window). A finished or failed download stays listed until the next one of that model starts,
 * so a window opened later still sees how it ended.
 */
import type { Homes } from "../config/homes.ts";
import { stat } from "node:fs/promises";
import { AGAIN, DownloadError } from "./download/download.ts";
import type { FreeBytes } from "./download/disk.ts";
import { planPull, pullModel, type PullPlan } from "./pull.ts";

export interface DownloadState {
  name: string;
  title: string;
  /** What it was started with (a catalog name or a URL): starting that again resumes it. */
  source: string;
  state: "running" | "done" | "failed" | "cancelled";
  received: number;
  total: number | null;
  bytesPerSecond: number;
  secondsLeft: number | null;
  /** In the app's words: what went wrong and what to do (Resume or Retry are its buttons). */
  error: string | null;
  /** Bytes kept on disk from a failed or cancelled download: the next start resumes from there. */
  partial: number;
}

/** A download error in the app's words: its buttons resume, so no command to run again. */
export function appWords(message: string, partial: number): string {
  const again = partial > 0 ? "choose Resume to continue where it stopped" : "choose Retry";
  return message
    .replace(` — ${AGAIN}`, ` — ${again}`)
    .replace(` and ${AGAIN}`, `, then ${again}`)
    .replace(/ — wait for it to finish, or stop it and pull again$/, " — wait for it to finish");
}

export interface DownloadsOptions {
  homes: Pick<Homes, "global">;
  onChange(state: DownloadState): void;
  freeBytes?: FreeBytes;
}

export class Downloads {
  readonly #opts: DownloadsOptions;
  readonly #states = new Map<string, DownloadState>();
  readonly #running = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(opts: DownloadsOptions) {
    this.#opts = opts;
  }

  list(): DownloadState[] {
    return [...this.#states.values()];
  }

  /** Starts (or joins) the download of a catalog name or URL; planning errors are thrown. */
  async start(what: string): Promise<DownloadState> {
    const plan = await planPull(this.#opts.homes, what);
    const running = this.#states.get(plan.name);
    if (running?.state === "running") return running;
    const state: DownloadState = {
      name: plan.name,
      title: plan.catalog?.title ?? plan.name,
      source: plan.catalog ? plan.name : plan.url,
      state: "running",
      received: 0,
      total: plan.size ?? null,
      bytesPerSecond: 0,
      secondsLeft: null,
      error: null,
      partial: 0,
    };
    this.#set(state);
    const abort = new AbortController();
    const done = this.#run(plan, state, abort.signal);
    this.#running.set(plan.name, { abort, done });
    return state;
  }

  /** Stops a running download; its partial file stays for the next start. */
  cancel(name: string): boolean {
    const run = this.#running.get(name);
    if (!run) return false;
    run.abort.abort();
    return true;
  }

  /** Cancels everything and waits for the files to be closed (engine shutdown, tests). */
  async close(): Promise<void> {
    const runs = [...this.#running.values()];
    for (const r of runs) r.abort.abort();
    await Promise.all(runs.map((r) => r.done));
  }

  #set(state: DownloadState): void {
    this.#states.set(state.name, state);
    this.#opts.onChange({ ...state });
  }

  async #run(plan: PullPlan, start: DownloadState, signal: AbortSignal): Promise<void> {
    let state = start;
    try {
      await pullModel(this.#opts.homes, plan, {
        signal,
        freeBytes: this.#opts.freeBytes,
        onProgress: (p) => {
          const { received, total, bytesPerSecond, secondsLeft } = p;
          state = { ...state, received, total, bytesPerSecond, secondsLeft };
          this.#set(state);
        },
      });
      this.#set({ ...state, state: "done", bytesPerSecond: 0, secondsLeft: 0 });
    } catch (err) {
      const cancelled = err instanceof DownloadError && err.kind === "cancelled";
      const partial = (await stat(`${plan.dest}.partial`).catch(() => null))?.size ?? 0;
      this.#set({
        ...state,
        state: cancelled ? "cancelled" : "failed",
        bytesPerSecond: 0,
        secondsLeft: null,
        error: cancelled ? null : appWords((err as Error).message, partial),
        partial,
      });
    } finally {
      this.#running.delete(plan.name);
    }
  }
}
