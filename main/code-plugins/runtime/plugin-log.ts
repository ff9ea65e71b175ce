/** A plugin's log: console output and runtime messages, kept in memory and appended to a file. */
import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";
import type { LogLevel } from "../../sandbox/types.ts";

export interface LogLine {
  /** ISO timestamp. */
  at: string;
  level: LogLevel;
  text: string;
}

const KEEP = 500;

export class PluginLog {
  readonly file: string | null;
  private readonly lines: LogLine[] = [];
  private pending: Promise<void> = Promise.resolve();
  private dirReady = false;
  private readonly listeners = new Set<(line: LogLine) => void>();

  constructor(file: string | null) {
    this.file = file;
  }

  write(level: LogLevel, text: string): void {
    const line: LogLine = { at: new Date().toISOString(), level, text };
    this.lines.push(line);
    if (this.lines.length > KEEP) this.lines.splice(0, this.lines.length - KEEP);
    for (const l of this.listeners) l(line);
    const file = this.file;
    if (!file) return;
    // Serialised so lines keep their order; a failing disk never reaches the plugin.
    this.pending = this.pending
      .then(async () => {
        if (!this.dirReady) await mkdir(path.dirname(file), { recursive: true });
        this.dirReady = true;
        await appendFile(file, `${line.at} ${level.padEnd(5)} ${text}\n`);
      })
      .catch(() => undefined);
  }

  recent(): LogLine[] {
    return [...this.lines];
  }

  subscribe(listener: (line: LogLine) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  flush(): Promise<void> {
    return this.pending;
  }
}
