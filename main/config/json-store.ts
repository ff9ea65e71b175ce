/**
 * A small JSON record file in the global home (grants, workspace trust, stored keys): read whole,
 * validated, written whole through a temporary file and a rename so a crash never leaves half a
 * file, and writes in one process serialized so two quick updates cannot lose one. A damaged file
 * reads as empty (one line says so) and is kept aside as `<file>.bad` before the next write, so
 * nothing in it is lost.
 */
import fs from "node:fs/promises";
import type { z } from "zod";
import { writeAtomically } from "./atomic-write.ts";
import type { ProblemSink } from "../host/problem.ts";

export class JsonStore<T> {
  readonly file: string;
  readonly #schema: z.ZodType<T>;
  readonly #empty: () => T;
  readonly #warn: ProblemSink;
  readonly #mode: number | undefined;
  #writes: Promise<unknown> = Promise.resolve();

  constructor(
    file: string,
    schema: z.ZodType<T>,
    empty: () => T,
    warn: ProblemSink,
    opts: { mode?: number } = {},
  ) {
    this.file = file;
    this.#schema = schema;
    this.#empty = empty;
    this.#warn = warn;
    this.#mode = opts.mode;
  }

  /** The records; an unreadable or invalid file reads as empty, with one line saying so. */
  async read(): Promise<T> {
    return (await this.#load()).data;
  }

  /** Read, change, write back — serialized with every other update of this store. */
  update(change: (data: T) => T | void): Promise<T> {
    const next = this.#writes.then(async () => {
      const { data, damaged } = await this.#load();
      const out = change(data) ?? data;
      if (damaged) await fs.rename(this.file, `${this.file}.bad`).catch(() => undefined);
      await writeAtomically(this.file, `${JSON.stringify(out, null, 2)}\n`, { mode: this.#mode });
      return out;
    });
    this.#writes = next.catch(() => undefined);
    return next;
  }

  get #where() {
    return { source: "config", file: this.file };
  }

  async #load(): Promise<{ data: T; damaged: boolean }> {
    let text: string;
    try {
      text = await fs.readFile(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT")
        this.#warn({
          ...this.#where,
          title: "cannot read",
          cause: (err as Error).message,
          suggestion: "treating it as empty",
        });
      return { data: this.#empty(), damaged: false };
    }
    try {
      const parsed = this.#schema.safeParse(JSON.parse(text));
      if (parsed.success) return { data: parsed.data, damaged: false };
      this.#warn({
        ...this.#where,
        title: "not in the expected shape",
        suggestion: "treating it as empty (fix or delete it)",
      });
    } catch {
      this.#warn({
        ...this.#where,
        title: "not valid JSON",
        suggestion: "treating it as empty (fix or delete it)",
      });
    }
    return { data: this.#empty(), damaged: true };
  }
}
