/**
 * Entries a process remembers across starts in one JSON file of the global home (the frontmatter
 * cache, the markdown index): read once per file, with a file of another version or anything
 * foreign or broken in it ignored; written whole and atomically when something was added, the
 * entries this process used first, at most `max` of them. A file that cannot be written only
 * makes the next start slower.
 */
import { readFileSync } from "node:fs";
import { writeAtomically } from "./atomic-write.ts";

interface KeptFile {
  version: unknown;
  entries: unknown;
}

export class KeptEntries<E> {
  readonly #version: string | number;
  readonly #max: number;
  readonly #valid: (entry: unknown) => entry is E;
  readonly #entries = new Map<string, E>();
  /** Keys this process looked up, kept first when the file is written. */
  readonly #used = new Set<string>();
  readonly #loaded = new Set<string>();
  #dirty = false;

  constructor(opts: {
    version: string | number;
    max: number;
    valid: (entry: unknown) => entry is E;
  }) {
    this.#version = opts.version;
    this.#max = opts.max;
    this.#valid = opts.valid;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The entry for `key`; the key counts as used by this process either way. */
  get(key: string): E | undefined {
    this.#used.add(key);
    return this.#entries.get(key);
  }

  set(key: string, entry: E): void {
    this.#used.add(key);
    this.#entries.set(key, entry);
    this.#dirty = true;
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Forgets everything (kept to a bound in a long-running app). */
  clear(): void {
    this.#entries.clear();
    this.#used.clear();
  }

  /** Reads `file` once per process; entries already known win over the file's. */
  load(file: string): void {
    if (this.#loaded.has(file)) return;
    this.#loaded.add(file);
    let data: KeptFile;
    try {
      data = JSON.parse(readFileSync(file, "utf8")) as KeptFile;
    } catch {
      // Nothing kept yet, or a broken file: it is written again as entries are added.
      return;
    }
    if (typeof data !== "object" || data === null || data.version !== this.#version) return;
    if (!Array.isArray(data.entries)) return;
    for (const pair of data.entries as unknown[])
      if (Array.isArray(pair) && typeof pair[0] === "string" && this.#valid(pair[1]))
        if (!this.#entries.has(pair[0])) this.#entries.set(pair[0], pair[1]);
  }

  /** Writes the entries if this process added any. */
  async save(file: string): Promise<void> {
    if (!this.#dirty) return;
    this.#dirty = false;
    const out: [string, E][] = [];
    for (const key of this.#used) {
      const entry = this.#entries.get(key);
      if (entry !== undefined) out.push([key, entry]);
    }
    for (const [key, entry] of this.#entries) {
      if (out.length >= this.#max) break;
      if (!this.#used.has(key)) out.push([key, entry]);
    }
    const data = { version: this.#version, entries: out.slice(0, this.#max) };
    await writeAtomically(file, JSON.stringify(data)).catch(() => {
      this.#dirty = true;
    });
  }
}
