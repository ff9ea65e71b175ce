/**
 * A small JSON record file in the global home (grants, workspace trust): read whole, validated,
 * written whole through a temporary file and a rename so a crash never leaves half a file, and
 * writes in one process serialized so two quick updates cannot lose one.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";

export class JsonStore<T> {
  readonly file: string;
  readonly #schema: z.ZodType<T>;
  readonly #empty: () => T;
  readonly #warn: (line: string) => void;
  #writes: Promise<unknown> = Promise.resolve();

  constructor(file: string, schema: z.ZodType<T>, empty: () => T, warn: (line: string) => void) {
    this.file = file;
    this.#schema = schema;
    this.#empty = empty;
    this.#warn = warn;
  }

  /** The records; an unreadable or invalid file reads as empty, with one line saying so. */
  async read(): Promise<T> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT")
        this.#warn(`${this.file}: cannot read (${(err as Error).message}); treating it as empty`);
      return this.#empty();
    }
    try {
      const parsed = this.#schema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      this.#warn(
        `${this.file}: not in the expected shape; treating it as empty (fix or delete it)`,
      );
    } catch {
      this.#warn(`${this.file}: not valid JSON; treating it as empty (fix or delete it)`);
    }
    return this.#empty();
  }

  /** Read, change, write back — serialized with every other update of this store. */
  update(change: (data: T) => T | void): Promise<T> {
    const next = this.#writes.then(async () => {
      const data = await this.read();
      const out = change(data) ?? data;
      await mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${randomBytes(6).toString("hex")}.tmp`;
      await writeFile(tmp, `${JSON.stringify(out, null, 2)}\n`, { mode: 0o600 });
      await rename(tmp, this.file);
      return out;
    });
    this.#writes = next.catch(() => undefined);
    return next;
  }
}
