/**
 * Hot reload: file changes under the plugins folders reload the affected plugins, debounced so an
 * editor's save (often several writes and a rename) becomes one reload.
 */
import { watch, type FSWatcher } from "chokidar";
import path from "node:path";
import type { PluginRuntime, ReloadReport } from "./runtime.ts";

export interface PluginWatcher {
  /** Resolves once the initial scan is done and changes are being seen. */
  ready: Promise<void>;
  close(): Promise<void>;
}

const IGNORED = /(^|[/\\])(node_modules|\.git)([/\\]|$)/;

export function watchPlugins(
  runtime: PluginRuntime,
  opts: {
    debounceMs?: number;
    onReload?(reports: ReloadReport[]): void;
    onError?(err: Error): void;
  } = {},
): PluginWatcher {
  const debounceMs = opts.debounceMs ?? 40;
  const dirs = runtime.port.pluginDirs();
  const watcher: FSWatcher = watch(dirs, {
    ignoreInitial: true,
    ignored: (p: string) =>
      IGNORED.test(p) || (path.basename(p).startsWith(".") && !dirs.includes(p)),
  });
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const flush = (): void => {
    const changed = [...pending];
    pending = new Set();
    // Reloads run one after another; changes arriving meanwhile queue the next batch.
    running = running
      .then(async () => {
        const reports = await runtime.reloadChanged(changed);
        opts.onReload?.(reports);
      })
      .catch((err: Error) => opts.onError?.(err));
  };
  const onChange = (file: string): void => {
    pending.add(path.resolve(file));
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  watcher
    .on("add", onChange)
    .on("change", onChange)
    .on("unlink", onChange)
    .on("addDir", onChange)
    .on("unlinkDir", onChange);
  if (opts.onError) watcher.on("error", (e) => opts.onError!(e as Error));
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return {
    ready,
    async close() {
      clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
