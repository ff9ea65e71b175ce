/**
 * What a command-only plugin's bundle exports (its command, the warnings probing it gave), kept in
 * the plugin cache by the bundle's content: a later start lists the command without starting the
 * plugin's sandbox, which starts at the command's first use (build.ts). Only a probe that asked
 * the host for nothing (no file, network or exec call, no environment) is kept, so what is kept
 * follows from the code alone. Best effort: a missing, unreadable or foreign file means nothing is
 * known, and the plugin is probed as before.
 */
import { hash } from "node:crypto";
import { readFileSync } from "node:fs";
import { writeAtomically } from "../../config/atomic-write.ts";
import { APP_VERSION } from "../../core/version.ts";
import type { LoadedCommand } from "./loaded-plugin.ts";
import { commandSchemaSchema } from "./result-schema.ts";

/** Bump when what the probe finds (its list of exports, its checks) changes. */
const FORMAT = 1;
/** Bundles remembered at most (the latest kept). */
const MAX_ENTRIES = 500;

export interface DescribedExports {
  command: LoadedCommand;
  /** Signature warnings, as the probe wrote them. */
  warnings: string[];
}

/** The key for a bundle as a backend runs it (`probe`: what the engine looks for, in order). */
export function exportsKey(code: string, backend: string, probe: unknown): string {
  // A release starts over: the probe's checks may have changed with it.
  return hash("sha256", JSON.stringify([FORMAT, APP_VERSION, backend, probe, code]), "hex");
}

export class ExportsCache {
  readonly #file: string | null;
  #entries?: Map<string, DescribedExports>;
  /** The write under way, and whether entries changed since it took them. */
  #writing: Promise<void> | null = null;
  #changed = false;

  constructor(file: string | null) {
    this.#file = file;
  }

  get(key: string): DescribedExports | undefined {
    return this.#read().get(key);
  }

  set(key: string, described: DescribedExports): void {
    const entries = this.#read();
    entries.delete(key);
    entries.set(key, described);
    for (const old of entries.keys()) {
      if (entries.size <= MAX_ENTRIES) break;
      entries.delete(old);
    }
    this.#save();
  }

  /** Drops what is kept for `key` (its plugin turned out to use the host on its own). */
  forget(key: string): void {
    const entries = this.#read();
    if (entries.delete(key)) this.#save();
  }

  #read(): Map<string, DescribedExports> {
    if (this.#entries) return this.#entries;
    this.#entries = new Map();
    if (this.#file === null) return this.#entries;
    try {
      const raw: unknown = JSON.parse(readFileSync(this.#file, "utf8"));
      if (!Array.isArray(raw)) return this.#entries;
      for (const pair of raw) {
        const described = Array.isArray(pair) && typeof pair[0] === "string" && valid(pair[1]);
        if (described) this.#entries.set(pair[0] as string, described);
      }
    } catch {
      // nothing known yet
    }
    return this.#entries;
  }

  /**
   * Writes the entries behind the caller, once however many plugins a start probes: a change
   * made while a write is under way is written by one more after it. Best effort: the next probe
   * writes it again.
   */
  #save(): void {
    const file = this.#file;
    this.#changed = true;
    if (file === null || this.#writing) return;
    this.#writing = (async () => {
      while (this.#changed) {
        this.#changed = false;
        await writeAtomically(file, JSON.stringify([...this.#read()])).catch(() => {});
      }
      this.#writing = null;
    })();
  }
}

/** A kept entry as the probe would have made it, or null (checked as a probe's result is). */
function valid(value: unknown): DescribedExports | null {
  if (typeof value !== "object" || value === null) return null;
  const { command, warnings } = value as Record<string, unknown>;
  if (!Array.isArray(warnings) || !warnings.every((w) => typeof w === "string")) return null;
  const parsed = commandSchemaSchema.safeParse(command);
  return parsed.success ? { command: parsed.data, warnings: warnings as string[] } : null;
}
