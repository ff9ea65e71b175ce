/**
 * `islet run`'s wait for MCP servers before its first request: every server starts, and the wait
 * lasts until those it waits for have answered or the time is up. Those still starting the last
 * time (main/mcp/slow-starts.ts) are not waited for; which ones are still starting at the end is
 * remembered for the next run, and one that starts later in this run is waited for again next time.
 */
import type { McpConnection } from "../../mcp/connection.ts";
import { slowStartKey, type McpSlowStarts } from "../../mcp/slow-starts.ts";

export interface StartWithin {
  conns: readonly McpConnection[];
  /** Starts every server; resolves once each has made its first attempt. */
  startAll(): Promise<void>;
  slowStarts?: McpSlowStarts;
}

/** Resolves with the names of the servers still starting when the wait ended. */
export async function startWithin(waitMs: number, s: StartWithin): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
    timer.unref();
  });
  const slow = s.slowStarts?.read() ?? new Set<string>();
  const keys = new Map(s.conns.map((c) => [c, slowStartKey(c.spec)]));
  const starting = s.startAll();
  const awaited = s.conns.filter((c) => !slow.has(keys.get(c)!));
  // startAll has started every one and says why one could not start: these are only waited for.
  const settled = Promise.all(awaited.map((c) => c.ready().catch(() => undefined)));
  await Promise.race([awaited.length === s.conns.length ? starting : settled, waited]);
  clearTimeout(timer);
  const still = s.conns.filter((c) => c.status === "starting" || c.status === "restarting");
  const started = s.conns.filter((c) => c.status === "running");
  void s.slowStarts?.update(
    still.map((c) => keys.get(c)!),
    started.map((c) => keys.get(c)!),
  );
  for (const c of still)
    void c.ready().then(
      () => s.slowStarts?.update([], [keys.get(c)!]),
      () => undefined,
    );
  return still.map((c) => c.spec.name);
}
