/**
 * After the editor changes a plugin's files: the reload that change causes, and its report.
 * Where plugin folders are watched (the app, `islet serve`) the watcher's own reload is awaited, so
 * a save reloads once; otherwise, or when no report comes in time, the runtime reloads directly.
 */
import type { PluginRuntime, ReloadReport } from "../code-plugins/runtime/runtime.ts";

/** Long enough for a loaded machine's watcher; a fallback reload follows, never a hang. */
const WATCH_WAIT_MS = 5000;

export interface ReloadTrigger {
  runtime: PluginRuntime;
  watching: boolean;
}

/**
 * Runs `change` (the file write), then resolves with the report of plugin `name`'s reload.
 * Listening starts before the change so a fast watcher's report is never missed.
 */
export async function reloadAfter(
  trigger: ReloadTrigger,
  name: string,
  changedFiles: readonly string[],
  change: () => Promise<void>,
  waitMs = WATCH_WAIT_MS,
): Promise<ReloadReport | null> {
  const { runtime } = trigger;
  let stop = (): void => {};
  // A reload that read the files before the change ended (one still running from an earlier
  // edit) is not this change's: its report would describe the old files.
  let changedAt = Infinity;
  const seen = trigger.watching
    ? new Promise<ReloadReport | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), waitMs);
        const off = runtime.onReport((report, { readAt }) => {
          if (report.name !== name || readAt < changedAt) return;
          clearTimeout(timer);
          resolve(report);
        });
        stop = () => {
          clearTimeout(timer);
          off();
        };
      })
    : Promise.resolve(null);
  try {
    await change();
    changedAt = performance.now();
  } catch (err) {
    stop();
    throw err;
  }
  const report = await seen;
  stop();
  if (report) return report;
  const reports = await runtime.reloadChanged(changedFiles);
  return reports.find((r) => r.name === name) ?? null;
}
