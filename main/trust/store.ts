/**
 * Workspace trust decisions, in `<global home>/trust.json` (SPEC §6): per folder (its real path)
 * "trusted" or "untrusted" and when. Trusting a folder trusts the folders inside it; an
 * "untrusted" record holds for that folder only. Beside them, per workspace opened trusted, what
 * ran from it when it was trusted (surface.ts): a change is asked about again.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { JsonStore } from "../config/json-store.ts";
import { isInside } from "../code-plugins/capabilities/files.ts";
import type { ProblemSink } from "../host/problem.ts";
import type { Surface } from "./surface.ts";

const Decision = z.enum(["trusted", "untrusted"]);
export type TrustDecision = z.infer<typeof Decision>;

const SurfaceSchema = z.record(
  z.string(),
  z.object({
    label: z.string(),
    command: z.string().optional(),
    files: z.record(z.string(), z.string()),
  }),
);

const TrustFile = z.object({
  version: z.literal(1),
  folders: z.record(z.string(), z.object({ decision: Decision, at: z.string() })),
  /** Per workspace (real path), its runnable surface as last confirmed. */
  surfaces: z.record(z.string(), SurfaceSchema).optional(),
});
type TrustFile = z.infer<typeof TrustFile>;

export interface TrustRecord {
  folder: string;
  decision: TrustDecision;
  at: string;
}

export function trustFile(globalHome: string): string {
  return path.join(globalHome, "trust.json");
}

/** The folder as trust records name it: absolute, symlinks resolved. */
export async function trustKey(folder: string): Promise<string> {
  return realpath(folder).catch(() => path.resolve(folder));
}

export class TrustStore {
  readonly #store: JsonStore<TrustFile>;

  constructor(globalHome: string, warn: ProblemSink) {
    this.#store = new JsonStore(
      trustFile(globalHome),
      TrustFile,
      () => ({ version: 1, folders: {} }),
      warn,
    );
  }

  get file(): string {
    return this.#store.file;
  }

  async list(): Promise<TrustRecord[]> {
    const { folders } = await this.#store.read();
    return Object.entries(folders)
      .map(([folder, r]) => ({ folder, ...r }))
      .sort((a, b) => a.folder.localeCompare(b.folder));
  }

  /** The record deciding `folder`: its own, else a trusted folder around it; null if none. */
  async lookup(folder: string): Promise<TrustRecord | null> {
    const key = await trustKey(folder);
    const records = await this.list();
    const own = records.find((r) => r.folder === key);
    if (own) return own;
    const parents = records.filter((r) => r.decision === "trusted" && isInside(key, r.folder));
    return parents.sort((a, b) => b.folder.length - a.folder.length)[0] ?? null;
  }

  /**
   * Records the decision; trusting records `surface` (what runs from it now) with it, and any
   * other decision forgets the folder's recorded surface.
   */
  async record(folder: string, decision: TrustDecision, surface?: Surface): Promise<string> {
    const key = await trustKey(folder);
    await this.#store.update((data) => {
      data.folders[key] = { decision, at: new Date().toISOString() };
      if (decision === "trusted" && surface) (data.surfaces ??= {})[key] = surface;
      else if (data.surfaces) delete data.surfaces[key];
    });
    return key;
  }

  /** What ran from the workspace `folder` when it was last confirmed; null if never recorded. */
  async surface(folder: string): Promise<Surface | null> {
    const key = await trustKey(folder);
    return (await this.#store.read()).surfaces?.[key] ?? null;
  }

  /** Records what runs from the workspace `folder` now (trusted through a folder around it). */
  async recordSurface(folder: string, surface: Surface): Promise<void> {
    const key = await trustKey(folder);
    await this.#store.update((data) => {
      (data.surfaces ??= {})[key] = surface;
    });
  }

  /** Forgets the folder's own record; false when there was none. */
  async revoke(folder: string): Promise<boolean> {
    const key = await trustKey(folder);
    let found = false;
    await this.#store.update((data) => {
      found = Object.hasOwn(data.folders, key);
      delete data.folders[key];
      if (data.surfaces) delete data.surfaces[key];
    });
    return found;
  }
}
