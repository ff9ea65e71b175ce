/**
 * Live edits of the homes' file extensions: `config/commands/`, `skills/`, `config/agents/` and
 * `config/hooks/` of the global and the project home, and the trust record. A change is seen on
 * the next turn without /reload, debounced (an editor's save is several writes); a broken file is
 * one warning while the rest stay loaded (the loaders skip only what they cannot read).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { configDir, homeLayers, type Homes } from "../config/homes.ts";
import { isInside } from "../code-plugins/capabilities/files.ts";
import { watchDebounced, type PluginWatcher } from "../code-plugins/runtime/watch.ts";
import { trustFile } from "../trust/store.ts";

export interface HomeReloads {
  /** Commands, skills and agents read again. */
  markdown(): void;
  /** Shell hook files read again. */
  hooks(): Promise<void>;
  /** The trust record read again (a folder trusted meanwhile brings its extensions in). */
  trust(): Promise<unknown>;
  /** After a batch was applied (hosts tell their windows). */
  changed?(): void;
  onError(err: Error): void;
}

export function watchHomes(
  homes: Homes,
  reloads: HomeReloads,
  opts: { debounceMs?: number } = {},
): PluginWatcher {
  const layers = homeLayers(homes);
  const markdownDirs = layers.flatMap((h) => [
    configDir(h, "commands"),
    path.join(h, "skills"),
    configDir(h, "agents"),
  ]);
  const hookDirs = layers.map((h) => configDir(h, "hooks"));
  const trust = trustFile(homes.global);
  const targets = [...markdownDirs, ...hookDirs, trust];
  const within = (p: string, dirs: readonly string[]) =>
    dirs.some((d) => p === d || isInside(p, d));
  // The roots exist; the folders may not yet: watch down to them and nothing else (the global
  // home's sessions, the workspace's sources are never looked at).
  const roots = [homes.global, homes.workdir];
  return watchDebounced(roots, {
    debounceMs: opts.debounceMs,
    ignored: (p) => {
      const abs = path.resolve(p);
      return !targets.some((t) => abs === t || isInside(abs, t) || isInside(t, abs));
    },
    onBatch: async (changed) => {
      // A folder on the way to them that went away (a deleted `.islet/`) may have taken any of
      // them. One that appeared needs nothing: what it holds arrives as events of its own, and
      // a folder that holds none of them (the app writing `config/models.yaml`) is no change.
      const above = changed.some((p) => !within(p, targets) && !existsSync(p));
      const trustChanged = changed.includes(trust);
      const markdown = above || changed.some((p) => within(p, markdownDirs));
      const hooks = above || changed.some((p) => within(p, hookDirs));
      if (!trustChanged && !markdown && !hooks) return;
      if (trustChanged) await reloads.trust();
      if (markdown) reloads.markdown();
      if (hooks) await reloads.hooks();
      reloads.changed?.();
    },
    onError: reloads.onError,
  });
}
