/**
 * How `islet run` shows events: JSON lines, or text for a person (answer on stdout, the rest on
 * stderr). The activity lines on stderr quote models, tools, plugins and servers: their control
 * and invisible characters are shown as markers, so no quoted text can move the cursor or erase.
 */
import { AgentEvent, PUBLIC_EVENT_TYPES, type EventSink } from "../core/events.ts";
import { visibleText } from "../core/visible-text.ts";
import type { Denial } from "../core/denial.ts";
import { formatProblem, type ProblemSink } from "../host/problem.ts";

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export const processOutput: Output = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

/** Quoted text for an activity line: one line, every hidden character a marker. */
const line = (text: string) => visibleText(text);
/** Quoted text that may span lines (a model's thinking, a notice). */
const shown = (text: string) => visibleText(text, { lines: true });

/** Where the CLI's problems go: one `warning:` line each on stderr. */
export function warningLines(io: Output): ProblemSink {
  return (problem) => io.err(`warning: ${shown(formatProblem(problem))}\n`);
}

/**
 * `run --json`: the public events, one JSON object per line, each checked against its schema
 * (the same one the bridge streams to the UI), so the printed shape is the documented one.
 */
export function jsonRenderer(io: Output): EventSink {
  return (event) => {
    // Deltas are enough for `thinking_delta`-style streaming; the public contract has the final thinking.
    if (!PUBLIC_EVENT_TYPES.has(event.type)) return;
    const checked = AgentEvent.safeParse(event);
    if (checked.success) io.out(`${JSON.stringify(checked.data)}\n`);
    else io.err(`internal error: a ${event.type} event does not match its schema; not printed\n`);
  };
}

/** The activity line of a call that did not run for want of approval. */
const DENIED_LINE: Record<Denial, string> = {
  user: "denied by you",
  no_one: "not run: no one to ask (no terminal; --yes approves tool calls)",
  rule: "not run: set to never run here",
  stopped: "not run: the turn was stopped first",
};

function brief(args: Record<string, unknown>): string {
  const parts = Object.entries(args).map(([k, v]) => {
    const text = (typeof v === "string" ? v : JSON.stringify(v)).replace(/[ \n\t]+/g, " ");
    // Cut before showing, so a marker is never cut in half.
    const cut = text.length > 60 ? `${line(Array.from(text).slice(0, 57).join(""))}…` : line(text);
    return `${line(k)}=${cut}`;
  });
  return parts.join(" ");
}

/** Text for a terminal: the answer streams to stdout, tool activity and notices go to stderr. */
export function textRenderer(io: Output, opts: { color: boolean }): EventSink {
  const dim = (s: string) => (opts.color ? `\x1b[2m${s}\x1b[22m` : s);
  const red = (s: string) => (opts.color ? `\x1b[31m${s}\x1b[39m` : s);
  let midLine = false;
  const endLine = () => {
    if (midLine) io.out("\n");
    midLine = false;
  };
  return (event: AgentEvent) => {
    switch (event.type) {
      case "assistant_delta":
        io.out(event.text);
        midLine = !event.text.endsWith("\n");
        break;
      case "assistant_withdrawn":
        // stdout cannot be unwritten: end the partial's line and say it does not count.
        endLine();
        io.err(dim("[answer withdrawn: the partial answer above is discarded]\n"));
        break;
      case "assistant":
        endLine();
        break;
      case "thinking":
        io.err(dim(`thinking: ${shown(event.text.trim())}\n`));
        break;
      case "tool_call":
        endLine();
        io.err(`${dim("→")} ${line(event.name)} ${dim(brief(event.arguments))}\n`);
        break;
      case "tool_result": {
        if (event.denied) {
          // Not a failure: a choice (or nobody there to make it), shown plainly.
          io.err(`  ${dim(`– ${line(event.name)} ${DENIED_LINE[event.denied]}`)}\n`);
          break;
        }
        const first = line(Array.from(event.output.split("\n", 1)[0]).slice(0, 100).join(""));
        const mark = event.error ? red("✗") : dim("✓");
        io.err(
          `  ${mark} ${dim(`${line(event.name)} ${event.durationMs} ms`)} ${event.error ? red(first) : dim(first)}\n`,
        );
        break;
      }
      case "notice":
        endLine();
        io.err(dim(`[${line(event.source)}] ${shown(event.text)}\n`));
        break;
      case "injected":
        io.err(dim(`[${line(event.source)} → ${event.role}] ${shown(event.text.slice(0, 200))}\n`));
        break;
      case "hook_status":
        // A hook saying what it does while it runs (Claude's statusMessage); its end is silent.
        if (event.running) {
          endLine();
          io.err(dim(`… ${line(event.source)}: ${line(event.text)}\n`));
        }
        break;
      case "agent_switch":
        io.err(dim(`agent: ${line(event.from)} → ${line(event.to)} (${line(event.reason)})\n`));
        break;
      case "compaction":
        io.err(
          dim(
            `compacted ${event.preMessages} → ${event.postMessages} messages${event.success ? "" : " (no summary)"}\n`,
          ),
        );
        break;
      case "error":
        endLine();
        io.err(
          red(`error (${line(event.errorType || "unclassified")}): ${shown(event.message)}\n`),
        );
        break;
      default:
        break;
    }
  };
}
