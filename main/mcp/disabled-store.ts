/**
 * Which MCP servers the user disabled, per workspace, in `<globalHome>/mcp-state.json`
 * (`{ "<workdir>": { "disabled": ["name", …] } }`), so a server switched off in the app stays off.
 * An unreadable file is one warning and nothing disabled.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { writeAtomically } from "../config/atomic-write.ts";
import type { ProblemSink } from "../host/problem.ts";

type State = Record<string, { disabled?: string[] }>;

export class McpDisabledStore {
  readonly file: string;
  private readonly workdir: string;
  private readonly warn: ProblemSink;
  private writes: Promise<void> = Promise.resolve();

  constructor(globalHome: string, workdir: string, warn: ProblemSink) {
    this.file = path.join(globalHome, "mcp-state.json");
    this.workdir = path.resolve(workdir);
    this.warn = warn;
  }

  disabled(): Set<string> {
    const names = this.read()[this.workdir]?.disabled;
    return new Set(Array.isArray(names) ? names.filter((n) => typeof n === "string") : []);
  }

  /** Remembers one server's switch; writes are queued so two quick ones cannot lose either. */
  set(name: string, disabled: boolean): Promise<void> {
    this.writes = this.writes.then(async () => {
      const state = this.read();
      const names = new Set(state[this.workdir]?.disabled ?? []);
      if (disabled) names.add(name);
      else names.delete(name);
      state[this.workdir] = { ...state[this.workdir], disabled: [...names].sort() };
      await writeAtomically(this.file, `${JSON.stringify(state, null, 2)}\n`);
    });
    return this.writes.catch((err: unknown) =>
      this.warn({ ...this.where, title: "could not save", cause: (err as Error).message }),
    );
  }

  private get where() {
    return { source: "mcp", file: this.file };
  }

  private read(): State {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return {};
    }
    try {
      const data: unknown = JSON.parse(text);
      if (data && typeof data === "object" && !Array.isArray(data)) return data as State;
      this.warn({
        ...this.where,
        title: "expected an object by workspace folder",
        suggestion: "ignoring it",
      });
    } catch (err) {
      this.warn({
        ...this.where,
        title: "not valid JSON",
        cause: (err as Error).message,
        suggestion: "ignoring it",
      });
    }
    return {};
  }
}
