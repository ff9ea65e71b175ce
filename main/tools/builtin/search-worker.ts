/**
 * The search worker's entry (search-pool.ts): runs one Grep or Glob search at a time, off the
 * engine's thread, and answers with its output or its error.
 */
import { parentPort } from "node:worker_threads";
import { ToolError } from "../types.ts";
import { globSearch } from "./glob-search.ts";
import { grepSearch } from "./grep-search.ts";
import type { SearchAnswer, SearchJob } from "./search-pool.ts";

const port = parentPort;
if (!port) throw new Error("search-worker.ts runs as a worker thread (search-pool.ts)");

port.on("message", (job: SearchJob) => {
  const search = job.kind === "grep" ? grepSearch(job.args) : globSearch(job.args);
  search.then(
    (output) => port.postMessage({ ok: true, output } satisfies SearchAnswer),
    (err: unknown) =>
      port.postMessage({
        ok: false,
        message: err instanceof Error ? err.message || err.name : String(err),
        toolError: err instanceof ToolError,
      } satisfies SearchAnswer),
  );
});
