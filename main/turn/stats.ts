/** Cumulative session metrics in the SDK's Stats shape. */
import type { Stats } from "../core/types.ts";

export function newStats(now = new Date()): Stats {
  return {
    startTime: now.toISOString(),
    duration: 0,
    interactions: 0,
    turns: 0,
    iterations: 0,
    tools: { calls: 0, errors: 0 },
    parseRetries: 0,
    compactions: 0,
    tokens: { in: 0, out: 0 },
    topTools: [],
  };
}

/** Counts a tool call and keeps topTools sorted by count, then name. */
export function countTool(stats: Stats, name: string, failed: boolean): void {
  stats.tools.calls++;
  if (failed) stats.tools.errors++;
  const entry = stats.topTools.find((t) => t.name === name);
  if (entry) entry.count++;
  else stats.topTools.push({ name, count: 1 });
  stats.topTools.sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

export function snapshotStats(stats: Stats, now = Date.now()): Stats {
  return {
    ...stats,
    duration: now - Date.parse(stats.startTime),
    tools: { ...stats.tools },
    tokens: { ...stats.tokens },
    topTools: stats.topTools.map((t) => ({ ...t })),
  };
}
