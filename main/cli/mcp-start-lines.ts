/**
 * What `islet run` says about MCP servers while it waits for them before its one request: a
 * marketplace can declare a dozen, and offline or without `bun` most fail for one of two or
 * three reasons. The servers that could not start in that wait are named in one line per reason,
 * and those still starting in one line.
 */
import type { Problem, ProblemSink } from "../host/problem.ts";

/** The manager's line for a server that could not start (mcp/connection.ts). */
const NOT_RUNNING = /^MCP server "([^"]*)" is not running: ([\s\S]*)$/;

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(", ");

export class McpStartLines {
  readonly #print: ProblemSink;
  #held: Problem[] | null = [];

  constructor(print: ProblemSink) {
    this.#print = print;
  }

  /** The engine's sink: a server's failure to start is held until `release`, the rest printed. */
  readonly sink: ProblemSink = (problem) => {
    if (this.#held !== null && problem.file === undefined && NOT_RUNNING.test(problem.title))
      this.#held.push(problem);
    else this.#print(problem);
  };

  /** The servers named by `release` (a line already says they are retrying, or why not). */
  readonly named = new Set<string>();

  /** Prints what was held, one line per reason, and holds nothing from then on. */
  release(): void {
    const held = this.#held ?? [];
    this.#held = null;
    const byReason = new Map<string, { names: string[]; first: Problem }>();
    for (const problem of held) {
      const [, name, reason] = NOT_RUNNING.exec(problem.title)!;
      this.named.add(name!);
      const group = byReason.get(reason!);
      if (group) group.names.push(name!);
      else byReason.set(reason!, { names: [name!], first: problem });
    }
    for (const [reason, { names, first }] of byReason) {
      if (names.length === 1) this.#print(first);
      else {
        // In name order: which failed first is a matter of timing.
        const who = `MCP servers ${quoted(names.sort())}`;
        this.#print({ source: who, title: `${who} are not running: ${reason}` });
      }
    }
  }
}

/** One line for the MCP servers a one-shot run did not wait longer for, however many. */
export function stillStartingLine(names: readonly string[]): string {
  return names.length === 1
    ? `MCP server ${quoted(names)} is still starting: the turn goes on, and its tools join once it runs`
    : `MCP servers ${quoted(names)} are still starting: the turn goes on, and their tools join once they run`;
}
