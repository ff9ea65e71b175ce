/**
 * MCP servers that were still starting when `islet run` stopped waiting for them, remembered in
 * `<globalHome>/cache/mcp-slow-starts.json` so the next run does not wait for them again. The
 * case: `npx -y some-server` offline hangs on the registry, and every one-shot run paid the whole
 * wait (10 s) before its first request. A remembered server still starts, in the background; its
 * tools join once it runs, and once it has started it is waited for again. Each server is
 * remembered by a hash of its name and definition: changing its command forgets it. A cache: an
 * unreadable file is the same as none.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { writeAtomically } from "../config/atomic-write.ts";
import type { McpServerSpec } from "./config.ts";

/** At most this many servers are remembered (the oldest go first). */
const MAX_REMEMBERED = 200;

/** The key of a server's definition; secrets in its env are hashed, never written. */
export function slowStartKey(spec: McpServerSpec): string {
  return createHash("sha256").update(JSON.stringify(spec)).digest("hex").slice(0, 24);
}

export class McpSlowStarts {
  readonly file: string;
  #writes: Promise<void> = Promise.resolve();

  constructor(globalHome: string) {
    this.file = path.join(globalHome, "cache", "mcp-slow-starts.json");
  }

  /** The keys of the servers remembered as slow. */
  read(): Set<string> {
    return new Set(Object.keys(this.#load()));
  }

  /** Remembers `slow` and forgets `started`; writes are queued, and a failure only loses memory. */
  update(slow: readonly string[], started: readonly string[]): Promise<void> {
    if (slow.length === 0 && started.length === 0) return this.#writes;
    this.#writes = this.#writes
      .then(async () => {
        const data = this.#load();
        const before = JSON.stringify(data);
        for (const key of started) delete data[key];
        const at = new Date().toISOString();
        for (const key of slow) data[key] = at;
        const kept = Object.entries(data)
          .sort((a, b) => b[1].localeCompare(a[1]))
          .slice(0, MAX_REMEMBERED);
        const next = Object.fromEntries(kept);
        if (JSON.stringify(next) !== before)
          await writeAtomically(this.file, `${JSON.stringify(next, null, 2)}\n`);
      })
      .catch(() => undefined);
    return this.#writes;
  }

  /** Resolves once every update asked for so far is written (or has failed). */
  settled(): Promise<void> {
    return this.#writes;
  }

  #load(): Record<string, string> {
    try {
      const data: unknown = JSON.parse(readFileSync(this.file, "utf8"));
      if (typeof data !== "object" || data === null || Array.isArray(data)) return {};
      return Object.fromEntries(
        Object.entries(data).filter((e): e is [string, string] => typeof e[1] === "string"),
      );
    } catch {
      return {};
    }
  }
}
