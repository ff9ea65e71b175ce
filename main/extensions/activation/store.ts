/**
 * Which activatable plugins the user activated, per workspace, in `<global home>/activation.json`:
 * keyed by the workspace's real path, each plugin with the fingerprint consent was given for (a
 * changed manifest voids it) and when. A damaged file reads as empty, with one line saying so.
 */
import path from "node:path";
import { z } from "zod";
import { JsonStore } from "../../config/json-store.ts";
import { trustKey } from "../../trust/store.ts";
import type { ProblemSink } from "../../host/problem.ts";
import type { RunFiles } from "../../trust/run-files.ts";

const Record_ = z.object({
  fingerprint: z.string(),
  /** The files its commands ran when allowed (main/trust/run-files.ts), to name a changed one. */
  files: z.record(z.string(), z.string()).optional(),
  at: z.string(),
});
const ActivationFile = z.object({
  version: z.literal(1),
  workspaces: z.record(z.string(), z.record(z.string(), Record_)),
});
type ActivationFile = z.infer<typeof ActivationFile>;

export interface ActivationRecord {
  plugin: string;
  fingerprint: string;
  files?: RunFiles;
  at: string;
}

export function activationFile(globalHome: string): string {
  return path.join(globalHome, "activation.json");
}

export class ActivationStore {
  readonly #store: JsonStore<ActivationFile>;
  readonly #workdir: string;
  #key: Promise<string> | null = null;

  constructor(globalHome: string, workdir: string, warn: ProblemSink) {
    this.#workdir = workdir;
    this.#store = new JsonStore(
      activationFile(globalHome),
      ActivationFile,
      () => ({ version: 1, workspaces: {} }),
      warn,
    );
  }

  get file(): string {
    return this.#store.file;
  }

  /** The workspace as records name it: its real path (symlinks resolved). */
  #workspace(): Promise<string> {
    this.#key ??= trustKey(this.#workdir);
    return this.#key;
  }

  /** This workspace's activations, by plugin name. */
  async list(): Promise<ActivationRecord[]> {
    const key = await this.#workspace();
    const { workspaces } = await this.#store.read();
    return Object.entries(workspaces[key] ?? {})
      .map(([plugin, r]) => ({ plugin, ...r }))
      .sort((a, b) => a.plugin.localeCompare(b.plugin));
  }

  async record(plugin: string, fingerprint: string, files?: RunFiles): Promise<void> {
    const key = await this.#workspace();
    await this.#store.update((data) => {
      data.workspaces[key] = {
        ...data.workspaces[key],
        [plugin]: { fingerprint, ...(files ? { files } : {}), at: new Date().toISOString() },
      };
    });
  }

  async forget(plugin: string): Promise<void> {
    const key = await this.#workspace();
    const { workspaces } = await this.#store.read();
    if (!workspaces[key]?.[plugin]) return;
    await this.#store.update((data) => {
      const own = { ...data.workspaces[key] };
      delete own[plugin];
      if (Object.keys(own).length === 0) delete data.workspaces[key];
      else data.workspaces[key] = own;
    });
  }
}
