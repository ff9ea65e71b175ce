/**
 * What is installed: every folder directly in each home's plugins dir is a pack (one plugin or
 * several), with its `.origin.yaml` when it came from git. `update` and `remove` take a pack's
 * name or the name of a plugin in it (seed 000: a plugin name resolves to its pack).
 */
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Homes } from "../config/homes.ts";
import { discoverPlugins } from "../code-plugins/loader/discover.ts";
import { loadPluginFeatures } from "../code-plugins/loader/features.ts";
import { originScope } from "../code-plugins/loader/origin-scope.ts";
import { isSkippedFolder } from "../code-plugins/loader/walk.ts";
import { findClaudePlugins } from "./claude.ts";
import { remoteOffer } from "./remote-entry.ts";
import { hasOrigin, originFile, readOrigin } from "./origin.ts";
import { PackError, type InstalledPack, type PackScope, type SameNamed } from "./types.ts";
import type { ProblemSink } from "../host/problem.ts";

/** The plugins dir of each home (features/plugins.yaml `dir:`, default `<home>/plugins`). */
export async function packsDirs(homes: Homes): Promise<Record<PackScope, string>> {
  const { features } = await loadPluginFeatures(homes, { trustedProject: true });
  const global =
    features.dirs.find((d) => d.source === "global")?.dir ?? path.join(homes.global, "plugins");
  // Both homes may name one folder (then it appears once): the project's packs go there too.
  const project = features.dirs.find((d) => d.source === "project")?.dir ?? global;
  return { global, project };
}

async function isDir(full: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return (await stat(full)).isDirectory();
  } catch {
    return false;
  }
}

/** A pack's folder and origin, and its plugins being listed. */
async function readHead(dir: string, scope: PackScope, warn: ProblemSink) {
  const name = path.basename(dir);
  const sidecar = await hasOrigin(dir);
  let origin: InstalledPack["origin"];
  if (sidecar) {
    try {
      origin = await readOrigin(dir);
    } catch (err) {
      const problem = err instanceof PackError ? err.problem : undefined;
      warn(problem ?? { source: name, title: (err as Error).message });
    }
  }
  const listing = (async () => {
    const where = sidecar ? await originScope(dir) : { folder: dir };
    if (!("folder" in where)) return { names: [], claude: [], errors: 0, remote: [] };
    const { folder, claudeEntry } = where;
    const recorded = claudeEntry ? { file: originFile(dir), entry: claudeEntry } : undefined;
    const [found, claude] = await Promise.all([
      discoverPlugins({ dirs: [{ dir: folder, home: folder, source: scope }] }),
      findClaudePlugins(folder, name, () => undefined, recorded).catch(() => ({
        plugins: [],
        remote: [],
      })),
    ]);
    const names = [...found.plugins.map((p) => p.name), ...claude.plugins.map((c) => c.name)];
    names.sort();
    return {
      names,
      claude: claude.plugins.map((c) => c.name),
      errors: found.errors.length,
      remote: claude.remote.map(remoteOffer),
    };
  })();
  const head = { name, dir, scope, ...(origin ? { origin } : {}) };
  return { head, sidecar, listing };
}

/** One pack folder as `list` shows it; undefined for a folder holding nothing Islet knows. */
export async function readPack(
  dir: string,
  scope: PackScope,
  warn: ProblemSink,
): Promise<InstalledPack | undefined> {
  const { head, sidecar, listing } = await readHead(dir, scope, warn);
  const { names, claude, errors, remote } = await listing;
  if (!sidecar && names.length === 0 && errors === 0) return undefined;
  return {
    ...head,
    plugins: names,
    ...(claude.length ? { claude } : {}),
    ...(remote.length ? { remote } : {}),
  };
}

/** An installed pack whose plugins may still be being listed (findPack answers before that). */
export interface FoundPack extends Omit<InstalledPack, "plugins"> {
  plugins: Promise<string[]>;
}

export function asFound(pack: InstalledPack): FoundPack {
  return { ...pack, plugins: Promise.resolve(pack.plugins) };
}

export async function listPacks(homes: Homes, warn: ProblemSink): Promise<InstalledPack[]> {
  const dirs = await packsDirs(homes);
  const scopes: PackScope[] = dirs.project === dirs.global ? ["global"] : ["global", "project"];
  const out: InstalledPack[] = [];
  for (const scope of scopes) {
    let entries: Dirent[];
    try {
      entries = await readdir(dirs[scope], { withFileTypes: true });
    } catch {
      continue;
    }
    const packs = await Promise.all(
      entries
        .filter((e) => !isSkippedFolder(e.name))
        .map(async (e) => {
          const full = path.join(dirs[scope], e.name);
          return (await isDir(full, e)) ? readPack(full, scope, warn) : undefined;
        }),
    );
    out.push(...packs.filter((p): p is InstalledPack => p !== undefined));
  }
  return out.sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.scope < b.scope ? -1 : 1,
  );
}

const where = (p: InstalledPack) =>
  p.scope === "global" ? "the global plugins" : "the workspace's plugins";

/** The pack named `nameOrPlugin`, or the pack holding a plugin of that name. */
export function resolvePack(
  packs: InstalledPack[],
  nameOrPlugin: string,
): { pack: InstalledPack; viaPlugin: boolean } {
  const pick = (list: InstalledPack[], viaPlugin: boolean) => {
    if (list.length > 1)
      throw new PackError(
        `"${nameOrPlugin}" is installed more than once (${list.map((p) => p.dir).join(" and ")}): remove one of the folders by hand`,
      );
    return list.length === 1 ? { pack: list[0], viaPlugin } : undefined;
  };
  const found =
    pick(
      packs.filter((p) => p.name === nameOrPlugin),
      false,
    ) ??
    pick(
      packs.filter((p) => p.plugins.includes(nameOrPlugin)),
      true,
    );
  if (found) return found;
  throw new PackError(
    `no plugin or pack named "${nameOrPlugin}" is installed; \`islet plugins list\` shows them`,
  );
}

/**
 * `resolvePack` without reading every pack when `nameOrPlugin` is a pack folder's name (the usual
 * case); `packs()` then reads them all once, only if asked. A pack from git is answered with its
 * folder and origin while its plugins are still being listed: an update starts fetching meanwhile.
 */
export async function findPack(
  homes: Homes,
  nameOrPlugin: string,
  warn: ProblemSink,
): Promise<{ pack: FoundPack; viaPlugin: boolean; packs: () => Promise<InstalledPack[]> }> {
  let all: Promise<InstalledPack[]> | undefined;
  const packs = () => (all ??= listPacks(homes, warn));
  const dirs = await packsDirs(homes);
  const scopes: PackScope[] = dirs.project === dirs.global ? ["global"] : ["global", "project"];
  const direct =
    /^[^/\\]+$/.test(nameOrPlugin) && !nameOrPlugin.startsWith(".")
      ? await Promise.all(
          scopes.map(async (scope): Promise<FoundPack | undefined> => {
            const dir = path.join(dirs[scope], nameOrPlugin);
            try {
              if (!(await stat(dir)).isDirectory()) return undefined;
            } catch {
              return undefined;
            }
            const { head, sidecar, listing } = await readHead(dir, scope, warn);
            const plugins = listing.then((l) => l.names);
            plugins.catch(() => undefined); // whoever needs the names sees the failure
            if (sidecar) return { ...head, plugins };
            const { names, errors } = await listing;
            return names.length > 0 || errors > 0 ? { ...head, plugins } : undefined;
          }),
        )
      : [];
  const found = direct.filter((p): p is FoundPack => p !== undefined);
  if (found.length === 1) return { pack: found[0], viaPlugin: false, packs };
  const { pack, viaPlugin } = resolvePack(await packs(), nameOrPlugin);
  return { pack: asFound(pack), viaPlugin, packs };
}

/**
 * Refuses a pack name or plugin names that an installed pack already has, except where both are
 * Claude Code plugins and a whole repository is installed (`opts.overlap`): marketplaces overlap
 * (one carries another's plugins), so the pack installs and the copy installed first goes on
 * loading. Those are returned, for the consent and the summary to say so. One plugin installed on
 * its own from a marketplace's entry is asked for by name: a copy already there is a clash.
 */
export function checkClashes(
  packs: InstalledPack[],
  name: string,
  plugins: readonly { name: string; format: string }[],
  opts: { overlap: boolean; except?: string },
): SameNamed[] {
  const same: SameNamed[] = [];
  for (const p of packs) {
    if (p.dir === opts.except) continue;
    if (p.name === name)
      throw new PackError(
        `a pack named "${name}" is already installed in ${where(p)} (${p.dir}): pick another --name, or \`islet plugins remove ${name}\` first`,
      );
    const shared: string[] = [];
    for (const plugin of plugins) {
      if (!p.plugins.includes(plugin.name)) continue;
      const bothClaude = plugin.format === "claude" && (p.claude ?? []).includes(plugin.name);
      if (!opts.overlap || !bothClaude)
        throw new PackError(
          `plugin "${plugin.name}" is already installed in ${where(p)} (pack ${p.name}, ${p.dir}): remove that pack first${plugins.length === 1 ? ", or pick another --name" : ""}`,
        );
      shared.push(plugin.name);
    }
    if (shared.length > 0) same.push({ pack: p.name, plugins: shared });
  }
  return same;
}
