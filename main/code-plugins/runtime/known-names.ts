/**
 * Which tool (or slash command) each plugin provided the last time it loaded, kept across runs in
 * the plugin cache (a small JSON file per kind). A plugin that fails to load registers nothing, so
 * without this a call to its tool or command could only say "unknown"; with it, the engine names
 * the plugin and why it failed. Best effort: a missing or unreadable file means nothing is known.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

export class KnownNames {
  readonly #file: string | null;
  #byPlugin?: Record<string, string>;

  constructor(file: string | null) {
    this.#file = file;
  }

  /** Records the name `plugin` provides now (null: none). Writes only when that changed. */
  remember(plugin: string, tool: string | null): void {
    const known = this.#read();
    if ((known[plugin] ?? null) === tool) return;
    if (tool === null) delete known[plugin];
    else known[plugin] = tool;
    this.#write(known);
  }

  /** The plugin that last provided `tool` (a tool or command name), if any. */
  ownerOf(tool: string): string | undefined {
    const known = this.#read();
    return Object.keys(known).find((plugin) => known[plugin] === tool);
  }

  /** The name `plugin` provided when it last loaded, if any. */
  nameOf(plugin: string): string | undefined {
    return this.#read()[plugin];
  }

  /** Whether `plugin` ever loaded and told us its name (or that it has none). */
  knows(plugin: string): boolean {
    return Object.hasOwn(this.#read(), plugin);
  }

  #read(): Record<string, string> {
    if (this.#byPlugin) return this.#byPlugin;
    this.#byPlugin = {};
    if (this.#file === null) return this.#byPlugin;
    try {
      const raw: unknown = JSON.parse(readFileSync(this.#file, "utf8"));
      if (raw && typeof raw === "object" && !Array.isArray(raw))
        for (const [plugin, tool] of Object.entries(raw))
          if (typeof tool === "string") this.#byPlugin[plugin] = tool;
    } catch {
      // nothing known yet
    }
    return this.#byPlugin;
  }

  #write(known: Record<string, string>): void {
    if (this.#file === null) return;
    const tmp = `${this.#file}.${process.pid}.tmp`;
    try {
      mkdirSync(path.dirname(this.#file), { recursive: true });
      writeFileSync(tmp, JSON.stringify(known));
      renameSync(tmp, this.#file);
    } catch {
      // best effort: the next successful load writes it again
    }
  }
}
