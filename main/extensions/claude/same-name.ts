/**
 * Claude Code plugins of one name in several places. Marketplaces overlap:
 * claude-plugins-official carries eleven of anthropics/claude-code's plugins under the same names.
 * Claude Code keeps such copies apart as name@marketplace. Islet names a plugin by its name alone
 * (its commands are /name:cmd, its agents name:agent), so one copy loads and the others wait. They
 * are named on their cards and in `islet plugins list`, not at every start.
 *
 * Which one loads:
 * - a global plugin before a project's: a repository must not stand in for the user's plugins;
 * - then a folder put in the plugins dir by hand (no .origin.yaml, often a copy being worked on)
 *   before one from an installed pack;
 * - then the copy installed first: what worked before an install goes on working. A plugin an
 *   update brought counts from that update, so a pack installed long ago cannot take a name over
 *   by adding it later;
 * - then path order.
 * Removing the pack whose copy loads hands the name to the next.
 */
import path from "node:path";
import type { Problem } from "../../host/problem.ts";
import type { ClaudePlugin } from "./plugin.ts";

/** A plugin with where it was found: its plugins dir and when its pack was installed. */
export interface PlacedPlugin {
  plugin: ClaudePlugin;
  pluginsDir: string;
  /**
   * When this copy was installed: its pack's `installed_at`, or the update's time for a plugin an
   * update added; absent for a folder put there by hand.
   */
  installedAt?: string;
}

/** The pack folder `inside` is in: its first folder below the plugins dir. */
export function packFolder(pluginsDir: string, inside: string): { name: string; dir: string } {
  const name = path.relative(pluginsDir, inside).split(path.sep)[0] ?? "";
  return { name, dir: path.join(pluginsDir, name) };
}

const packOf = (placed: PlacedPlugin) => packFolder(placed.pluginsDir, placed.plugin.dir);

/** Names listed in a note; the plugins' own rows name every one. */
const MAX_NAMED = 12;

function label(placed: PlacedPlugin): string {
  const { name } = packOf(placed);
  const where = placed.plugin.scope === "project" ? "the project's" : "the global";
  return placed.installedAt ? `pack ${name}` : `${where} folder ${name}`;
}

function rank(a: PlacedPlugin, b: PlacedPlugin): number {
  if (a.plugin.scope !== b.plugin.scope) return a.plugin.scope === "global" ? -1 : 1;
  // A hand-made folder ("") before any pack, then packs by install time.
  const at = (a.installedAt ?? "").localeCompare(b.installedAt ?? "");
  if (at !== 0) return at;
  return a.plugin.dir < b.plugin.dir ? -1 : a.plugin.dir > b.plugin.dir ? 1 : 0;
}

/**
 * Marks every enabled plugin whose name an earlier one has `shadowed` (it does not load), and
 * returns one note per pair of places: "N plugins of X do not load: Y has them".
 */
export function chooseAmongSameNames(placed: readonly PlacedPlugin[]): Problem[] {
  const byName = new Map<string, PlacedPlugin[]>();
  for (const p of placed) {
    if (p.plugin.status !== "enabled") continue;
    byName.set(p.plugin.name, [...(byName.get(p.plugin.name) ?? []), p]);
  }
  const pairs = new Map<string, { loser: PlacedPlugin; winner: PlacedPlugin; names: string[] }>();
  for (const [name, all] of byName) {
    if (all.length < 2) continue;
    const [winner, ...rest] = [...all].sort(rank);
    for (const loser of rest) {
      loser.plugin.status = "shadowed";
      loser.plugin.shadowedBy = { dir: winner.plugin.dir, where: label(winner) };
      const key = `${packOf(loser).dir}\n${packOf(winner).dir}`;
      const pair = pairs.get(key) ?? { loser, winner, names: [] };
      pair.names.push(name);
      pairs.set(key, pair);
    }
  }
  return [...pairs.values()].map(({ loser, winner, names }) => {
    const n = names.length;
    const sorted = [...names].sort();
    const shown =
      n > MAX_NAMED
        ? `${sorted.slice(0, MAX_NAMED).join(", ")} and ${n - MAX_NAMED} more`
        : sorted.join(", ");
    const from = packOf(loser);
    const removable = winner.installedAt !== undefined;
    return {
      source: "claude-plugins",
      file: from.dir,
      title: `${n} plugin${n === 1 ? "" : "s"} of ${label(loser)} ${n === 1 ? "does" : "do"} not load: ${label(winner)} has ${n === 1 ? "one" : "them"} under the same name${n === 1 ? "" : "s"} (${shown})`,
      suggestion: removable
        ? `to load ${label(loser)}'s instead, islet plugins remove ${packOf(winner).name}`
        : `rename or remove one of the two copies`,
    };
  });
}
