/**
 * `/output-style [NAME]`, as in Claude Code: without a name it lists the styles (the current one
 * starred); with one it switches the session to it (`default` goes back to the agent's own
 * prompt). The choice is saved in the session file and comes back when the session is reopened.
 * As in Claude Code, a style shapes the main conversation only: a Task's sub-agent runs with its
 * own agent's prompt (sub-agent sessions start without one).
 */
import type { AgentSession } from "../../turn/loop.ts";
import type { SlashCommand } from "../../commands/types.ts";
import type { Loaded } from "../../config/frontmatter-fields.ts";
import type { OutputStyle } from "./styles.ts";
import { formatProblem, type ProblemSink } from "../../host/problem.ts";

/** The session-file state key holding the chosen style's name. */
export const OUTPUT_STYLE_KEY = "outputStyle";

export interface OutputStyleDeps {
  /** Every style now (read on each use: an edited file counts at the next switch). */
  styles(): Loaded<OutputStyle>;
  /** Saves the name (null: default) in the session's file. */
  save(sessionId: string, name: string | null): void;
}

export function outputStyleCommand(deps: OutputStyleDeps): SlashCommand {
  return {
    name: "output-style",
    description: "List the output styles, or switch this session to one.",
    hints: "[style name]",
    source: "builtin",
    async run(args, env) {
      const found = deps.styles();
      const current = env.session.state.outputStyle?.name ?? "default";
      if (args === "") {
        const rows = [{ name: "default", description: "The agent's own system prompt." }];
        rows.push(...found.items);
        const lines = rows.map(
          (s) =>
            `${s.name.toLowerCase() === current.toLowerCase() ? "*" : " "} ${s.name}` +
            (s.description ? ` — ${s.description}` : ""),
        );
        return { output: [...lines, ...found.errors.map(formatProblem)].join("\n") };
      }
      return { output: `Output style: ${chooseOutputStyle(deps, env.session, args)}.` };
    },
  };
}

/**
 * Switches the session to the style named (`default`: the agent's own prompt) and saves the
 * choice; returns the name it now uses. Unknown: one line listing the known ones. The command and
 * the app's picker (`outputStyles/select`) both come here.
 */
export function chooseOutputStyle(
  deps: OutputStyleDeps,
  session: AgentSession,
  name: string,
): string {
  if (name.toLowerCase() === "default") {
    setOutputStyle(session, null);
    deps.save(session.state.sessionId, null);
    return "default";
  }
  const found = deps.styles();
  const style = pickStyle(found.items, name);
  if (!style)
    throw new Error(
      `unknown output style "${name}"; known: ${["default", ...found.items.map((s) => s.name)].join(", ")}`,
    );
  setOutputStyle(session, style);
  deps.save(session.state.sessionId, style.name);
  return style.name;
}

/** By exact name, then case-insensitively, then by a plugin style's bare name. */
export function pickStyle(styles: readonly OutputStyle[], name: string): OutputStyle | undefined {
  const lower = name.toLowerCase();
  return (
    styles.find((s) => s.name === name) ??
    styles.find((s) => s.name.toLowerCase() === lower) ??
    styles.find((s) => s.name.toLowerCase().split(":").at(-1) === lower)
  );
}

export function setOutputStyle(session: AgentSession, style: OutputStyle | null): void {
  session.state.outputStyle = style
    ? { name: style.name, body: style.body, keepCodingInstructions: style.keepCodingInstructions }
    : null;
}

/** A reopened session's saved style, found again by name; a style gone since is one warning. */
export function restoreOutputStyle(
  session: AgentSession,
  saved: unknown,
  styles: () => Loaded<OutputStyle>,
  warn: ProblemSink,
): void {
  if (typeof saved !== "string" || saved === "") return;
  const style = pickStyle(styles().items, saved);
  if (style) setOutputStyle(session, style);
  else
    warn({
      source: `output style "${saved}"`,
      title: `output style "${saved}" of this session is gone`,
      suggestion: "using the default (/output-style lists them)",
    });
}
