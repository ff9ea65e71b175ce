/**
 * The user's answers to plugins' permission requests, in `<global home>/grants.json` (SPEC §6):
 * per plugin folder (its real path, so a same-named plugin elsewhere inherits nothing) the keys
 * of what was granted and denied, and the hash of the last request answered.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { JsonStore } from "../../config/json-store.ts";
import type { ProblemSink } from "../../host/problem.ts";

const PluginGrant = z.object({
  name: z.string(),
  /** requestHash() of the request last answered. */
  hash: z.string(),
  granted: z.array(z.string()),
  denied: z.array(z.string()),
  at: z.string(),
});
export type PluginGrant = z.infer<typeof PluginGrant>;

const GrantsFile = z.object({
  version: z.literal(1),
  plugins: z.record(z.string(), PluginGrant),
});
type GrantsFile = z.infer<typeof GrantsFile>;

export function grantsFile(globalHome: string): string {
  return path.join(globalHome, "grants.json");
}

/** The key a plugin's grants are stored under: its folder's real path. */
export async function grantKey(pluginDir: string): Promise<string> {
  return realpath(pluginDir).catch(() => path.resolve(pluginDir));
}

export class GrantStore {
  readonly #store: JsonStore<GrantsFile>;

  constructor(globalHome: string, warn: ProblemSink) {
    this.#store = new JsonStore(
      grantsFile(globalHome),
      GrantsFile,
      () => ({ version: 1, plugins: {} }),
      warn,
    );
  }

  get file(): string {
    return this.#store.file;
  }

  async all(): Promise<Record<string, PluginGrant>> {
    return (await this.#store.read()).plugins;
  }

  /** Adds to what was granted or denied (a key moves from one list to the other). */
  async record(
    key: string,
    entry: { name: string; hash: string; granted?: string[]; denied?: string[] },
  ): Promise<void> {
    await this.recordMany([{ key, ...entry }]);
  }

  /** `record` for several plugins in one write (a pack install records all of its plugins). */
  async recordMany(
    entries: { key: string; name: string; hash: string; granted?: string[]; denied?: string[] }[],
  ): Promise<void> {
    if (entries.length === 0) return;
    await this.#store.update((data) => {
      for (const { key, ...entry } of entries) this.#apply(data, key, entry);
    });
  }

  #apply(
    data: GrantsFile,
    key: string,
    entry: { name: string; hash: string; granted?: string[]; denied?: string[] },
  ): void {
    const old = data.plugins[key];
    const granted = new Set(old?.granted ?? []);
    const denied = new Set(old?.denied ?? []);
    for (const k of entry.granted ?? []) {
      granted.add(k);
      denied.delete(k);
    }
    for (const k of entry.denied ?? []) {
      denied.add(k);
      granted.delete(k);
    }
    data.plugins[key] = {
      name: entry.name,
      hash: entry.hash,
      granted: [...granted].sort(),
      denied: [...denied].sort(),
      at: new Date().toISOString(),
    };
  }

  /**
   * Forgets the answers of every plugin folder at or below `dir` (a real path, see grantKey) but
   * those in `keep`: a removed pack's folders, or the ones an update dropped. A plugin put there
   * later, whatever its name, is asked again; a same-named plugin elsewhere keeps its own answers.
   */
  async forgetUnder(dir: string, keep: readonly string[] = []): Promise<number> {
    const kept = new Set(keep);
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    const matches = (key: string) => (key === dir || key.startsWith(prefix)) && !kept.has(key);
    // Nothing to forget: no write (and no grants.json created for a pack that asked for nothing).
    if (!Object.keys(await this.all()).some(matches)) return 0;
    let removed = 0;
    await this.#store.update((data) => {
      for (const key of Object.keys(data.plugins).filter(matches)) {
        delete data.plugins[key];
        removed++;
      }
    });
    return removed;
  }

  /** Forgets every answer for the plugins named `name` (they are asked again). */
  async revoke(name: string): Promise<number> {
    let removed = 0;
    await this.#store.update((data) => {
      for (const [key, grant] of Object.entries(data.plugins)) {
        if (grant.name !== name) continue;
        delete data.plugins[key];
        removed++;
      }
    });
    return removed;
  }
}
