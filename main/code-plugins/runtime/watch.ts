/**
 * Hot reload: file changes under the plugins folders reload the affected plugins, debounced so an
 * editor's save (often several writes and a rename) becomes one reload. `watchDebounced` is the
 * same machinery for any set of paths (the homes' commands, skills, agents and hooks use it).
 */
import path from "node:path";
import { watchTree } from "../../config/tree-watch.ts";
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
  const dirs = runtime.port.pluginDirs();
  return watchDebounced(dirs, {
    debounceMs: opts.debounceMs,
    ignored: (p) => IGNORED.test(p) || (path.basename(p).startsWith(".") && !dirs.includes(p)),
    onBatch: async (changed) => {
      const reports = await runtime.reloadChanged(changed);
      opts.onReload?.(reports);
    },
    onError: opts.onError,
  });
}

/**
 * Watches `paths` (folders and files; ones missing now are seen once created, under a watched
 * parent); changes within `debounceMs` of each other become one `onBatch` with their absolute
 * paths. Batches run one after another; changes arriving meanwhile queue the next.
 */
export function watchDebounced(
  paths: readonly string[],
  opts: {
    debounceMs?: number;
    ignored?(file: string): boolean;
    onBatch(changed: string[]): Promise<void>;
    onError?(err: Error): void;
  },
): PluginWatcher {
  const debounceMs = opts.debounceMs ?? 40;
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const flush = (): void => {
    const changed = [...pending];
    pending = new Set();
    running = running.then(() => opts.onBatch(changed)).catch((err: Error) => opts.onError?.(err));
  };
  const onChange = (file: string): void => {
    pending.add(path.resolve(file));
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  // One watcher per folder, not per file (config/tree-watch.ts).
  const watcher = watchTree(paths, { ignored: opts.ignored, onChange, onError: opts.onError });
  return {
    ready: watcher.ready,
    async close() {
      clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
