/**
 * Watches folder trees with one fs.watch per folder, never one per file, and without stat-ing the
 * files at start: hundreds of plugins hold thousands of files, and a watcher that stats and
 * watches each one (chokidar) took longer to start than loading them. Reports the path of each
 * change: a file or folder added, changed or removed. A folder that appears is watched in turn and
 * the files already in it are reported (they may have been written before its watch began). A
 * path that does not exist yet is seen once it is created: its nearest existing parent is watched
 * for the names on the way to it. Linked folders are followed, each real folder watched once.
 */
import { readdirSync, watch, type Dirent, type FSWatcher } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";

export interface TreeWatcher {
  /** Resolves once every existing folder is watched. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface TreeWatchOptions {
  /** Paths (absolute) neither reported nor descended into. */
  ignored?(file: string): boolean;
  onChange(file: string): void;
  onError?(err: Error): void;
}

export function watchTree(roots: readonly string[], opts: TreeWatchOptions): TreeWatcher {
  const ignored = opts.ignored ?? (() => false);
  /** Watched folders by the path they are reported under. */
  const folders = new Map<string, { watcher: FSWatcher; real: string }>();
  const reals = new Set<string>();
  /** Parents watched for a missing root to appear, with the roots they wait for. */
  const waiting = new Map<string, { watcher: FSWatcher; roots: Set<string> }>();
  let closed = false;

  const fail = (err: unknown): void => {
    if (!closed) opts.onError?.(err instanceof Error ? err : new Error(String(err)));
  };

  const isFolder = async (p: string, entry?: Dirent): Promise<boolean> => {
    if (entry && !entry.isSymbolicLink()) return entry.isDirectory();
    try {
      return (await stat(p)).isDirectory();
    } catch {
      return false;
    }
  };

  /** Stops watching `dir` and everything below it (it went away). */
  const forget = (dir: string): void => {
    for (const [p, f] of folders)
      if (p === dir || p.startsWith(dir + path.sep)) {
        f.watcher.close();
        reals.delete(f.real);
        folders.delete(p);
      }
  };

  /** A change inside a watched folder: report it, and follow a folder that came or went. */
  const changed = async (full: string): Promise<void> => {
    if (closed || ignored(full)) return;
    opts.onChange(full);
    if (await isFolder(full)) {
      if (!folders.has(full)) await add(full, true);
    } else if (folders.has(full)) forget(full);
  };

  /** Watches `dir` and the folders below it; `report`: its files are new (say so). */
  const add = async (dir: string, report: boolean, knownReal?: string): Promise<void> => {
    if (closed || folders.has(dir)) return;
    let real: string;
    try {
      real = knownReal ?? (await realpath(dir));
    } catch {
      return; // gone again
    }
    if (reals.has(real) || closed || folders.has(dir)) return; // a link loop, or two links
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: true }, (_event, name) => {
        if (name) void changed(path.join(dir, name.toString())).catch(fail);
        // No name (rare): the folder itself is looked at again.
        else void rescan(dir).catch(fail);
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") fail(err);
      return;
    }
    watcher.on("error", (err) => {
      // A watched folder deleted: its parent's watcher reports it.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "EPERM" && code !== "ENOENT") fail(err);
      forget(dir);
    });
    folders.set(dir, { watcher, real });
    reals.add(real);
    let entries: Dirent[];
    try {
      // Synchronous: a thousand small folders list in a fraction of the promise round trips.
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    // Files and plain folders are told apart from the listing, without a promise each (a start
    // watches thousands of files); only links need a stat.
    const below: Promise<void>[] = [];
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (ignored(full)) continue;
      if (!e.isSymbolicLink()) {
        if (report) opts.onChange(full);
        // Below a real folder, a folder that is no link is where its name says.
        if (e.isDirectory()) below.push(add(full, report, path.join(real, e.name)));
        continue;
      }
      below.push(
        isFolder(full).then((folder) => {
          if (report) opts.onChange(full);
          return folder ? add(full, report) : undefined;
        }),
      );
    }
    await Promise.all(below);
  };

  /** A folder whose change named nothing: its entries are reported again. */
  const rescan = async (dir: string): Promise<void> => {
    const entries = await readdir(dir).catch(() => [] as string[]);
    for (const name of entries) await changed(path.join(dir, name));
  };

  /** Watches the nearest existing parent of `root` until `root` exists. */
  const waitFor = async (root: string): Promise<void> => {
    let parent = path.dirname(root);
    while (parent !== path.dirname(parent) && !(await isFolder(parent)))
      parent = path.dirname(parent);
    if (closed) return;
    const entry = waiting.get(parent);
    if (entry) {
      entry.roots.add(root);
      return;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(parent, { persistent: true }, (_event, name) => {
        if (!name) return;
        const full = path.join(parent, name.toString());
        const wanted = waiting.get(parent);
        if (!wanted) return;
        for (const r of wanted.roots)
          if (r === full || r.startsWith(full + path.sep)) void arrived(parent, r).catch(fail);
      });
    } catch (err) {
      fail(err);
      return;
    }
    watcher.on("error", () => watcher.close());
    waiting.set(parent, { watcher, roots: new Set([root]) });
  };

  /** Something on the way to `root` appeared under `parent`: watch what exists now. */
  const arrived = async (parent: string, root: string): Promise<void> => {
    const wanted = waiting.get(parent);
    if (!wanted?.roots.delete(root)) return;
    if (wanted.roots.size === 0) {
      wanted.watcher.close();
      waiting.delete(parent);
    }
    await start(root, true);
  };

  const start = async (root: string, report: boolean): Promise<void> => {
    if (await isFolder(root)) {
      if (report && !ignored(root)) opts.onChange(root);
      await add(root, report);
      return;
    }
    // A file root, or a missing one: its parent is watched for it.
    let exists = true;
    try {
      await stat(root);
    } catch {
      exists = false;
    }
    if (exists) {
      if (report && !ignored(root)) opts.onChange(root);
      await watchFile(root);
      return;
    }
    await waitFor(root);
  };

  /** A file root: its folder is watched for that one name (an editor's save replaces the file). */
  const watchFile = async (file: string): Promise<void> => {
    const parent = path.dirname(file);
    if (closed) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(parent, { persistent: true }, (_event, name) => {
        if (name && path.join(parent, name.toString()) === file && !ignored(file))
          opts.onChange(file);
      });
    } catch (err) {
      fail(err);
      return;
    }
    watcher.on("error", () => watcher.close());
    folders.set(`${file}\0file`, { watcher, real: `${file}\0file` });
  };

  const ready = Promise.all(roots.map((r) => start(path.resolve(r), false)))
    .then(() => undefined)
    .catch(fail);
  return {
    ready,
    async close() {
      closed = true;
      await ready;
      for (const f of folders.values()) f.watcher.close();
      for (const w of waiting.values()) w.watcher.close();
      folders.clear();
      waiting.clear();
      reals.clear();
    },
  };
}
