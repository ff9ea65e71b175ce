/**
 * The engine's questions at a terminal (on stderr, answered on stdin), one at a time: tool
 * approval, plugin permissions, workspace trust, plugin activation. Which port a command gets:
 * `--yes` answers yes for this run, a terminal asks, anything else asks nobody (safe defaults).
 * What the question quotes (a command, a plugin's reason, a model's "why") reaches the terminal
 * with its control and invisible characters shown as markers, and a command is shown in full.
 */
import { packInstallLines, packUpdateLines } from "../host/pack-question-text.ts";
import { describePermission } from "../host/permission-text.ts";
import { argumentsText, visibleQuestion } from "../host/visible-question.ts";
import { createInterface } from "node:readline/promises";
import {
  NOBODY,
  YES_FOR_THIS_RUN,
  type AnswerFor,
  type QuestionKind,
  type QuestionOf,
  type Question,
  type QuestionPort,
} from "../host/questions.ts";

interface Prompt<K extends QuestionKind> {
  text: string;
  keys: Record<string, AnswerFor<K>>;
}

/**
 * "Allow Bash: ls -la" for a one-line call, else the whole of it as a block under a header that
 * says how many lines it has (so a tail scrolled out of sight is noticed).
 */
function call(tool: string, args: Record<string, unknown>): string {
  const lines = argumentsText(args).split("\n");
  if (lines.length === 1) return `Allow ${tool}: ${lines[0]}`;
  return `Allow ${tool} (${lines.length} lines):\n${lines.map((l) => `    │ ${l}`).join("\n")}`;
}

/** Markers in reverse video, so no text can pass for one (only when colour is welcome). */
function highlighted(text: string): string {
  if (process.env.NO_COLOR) return text;
  return text.replace(/⟨[^⟩]*⟩/g, (m) => `\x1b[7m${m}\x1b[27m`);
}

const list = (lines: string[]) => lines.map((l) => `  - ${l}`).join("\n");

function prompt<K extends QuestionKind>(question: QuestionOf<K>): Prompt<K> {
  // One switch over the kinds; the casts are safe because `kind` decides both sides.
  const p = (text: string, keys: Record<string, string>) =>
    ({ text: highlighted(text), keys }) as Prompt<K>;
  const q = visibleQuestion(question as Question);
  switch (q.kind) {
    case "approval":
      if (q.rewrittenBy?.length)
        return p(
          `${call(q.tool, q.arguments)}\n  (arguments rewritten by plugin ${q.rewrittenBy.join(", ")})\n  [y]es / [n]o > `,
          { y: "allow", n: "deny" },
        );
      // Why an earlier "always" no longer holds (another server, a rewritten description).
      return p(
        `${call(q.tool, q.arguments)}\n` +
          (q.changed?.length ? `${list(q.changed)}\n` : "") +
          "  [y]es / [n]o / [a]lways / ne[v]er > ",
        { y: "allow", n: "deny", a: "always", v: "never" },
      );
    case "permissions":
      return p(
        `Plugin ${q.plugin} (${q.dir}) asks for:\n${list(q.requested.map(describePermission))}\n` +
          (q.granted.length ? `  (already granted: ${q.granted.length})\n` : "") +
          "  [g]rant / [o]nly this run / [d]eny > ",
        { g: "grant", o: "once", d: "deny" },
      );
    case "workspace-trust":
      return p(
        `Trust ${q.folder}? Its .islet/ would enable:\n${list(q.heldBack)}\n` +
          "  [t]rust / [o]nly this run / [n]o > ",
        { t: "trust", o: "once", n: "deny" },
      );
    case "plugin-activation":
      return p(
        `Activate ${q.pluginKind === "runner" ? "CLI-tool" : "code"} plugin ${q.plugin}: ${q.description}\n` +
          `${list(q.details)}\n  Why: ${q.reason}\n  [y]es / [n]o > `,
        { y: "allow", n: "deny" },
      );
    case "runner-install":
      return p(
        `Plugin ${q.plugin} needs: ${q.command}\n  Why: ${q.reason}\n  Run it? [y]es / [n]o > `,
        { y: "install", n: "cancel" },
      );
    case "pack-install":
      return p(
        `${packInstallLines(question as QuestionOf<"pack-install">).join("\n")}\n  Install? [y]es / [n]o > `,
        {
          y: "install",
          n: "cancel",
        },
      );
    case "pack-update":
      return p(
        `${packUpdateLines(question as QuestionOf<"pack-update">).join("\n")}\n  Update? [y]es / [n]o > `,
        {
          y: "update",
          n: "cancel",
        },
      );
  }
}

export function ttyQuestions(): QuestionPort {
  let queue: Promise<unknown> = Promise.resolve();
  const ask = async <K extends QuestionKind>(q: QuestionOf<K>, signal?: AbortSignal) => {
    const { text, keys } = prompt(q);
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      for (;;) {
        const answer = (await rl.question(text, { signal })).trim().toLowerCase().slice(0, 1);
        if (Object.hasOwn(keys, answer)) return keys[answer];
      }
    } finally {
      rl.close();
    }
  };
  return {
    ask<K extends QuestionKind>(q: QuestionOf<K>, signal?: AbortSignal): Promise<AnswerFor<K>> {
      // One question at a time: two prompts on one terminal would interleave.
      const next = queue.then(() => ask(q, signal));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** `--yes` → yes for this run; a terminal on both ends → ask there; otherwise nobody. */
export function cliQuestions(opts: { yes?: boolean; interactive: boolean }): QuestionPort {
  if (opts.yes) return YES_FOR_THIS_RUN;
  return opts.interactive ? ttyQuestions() : NOBODY;
}

/** Whether someone can answer at this terminal. */
export function terminalAttached(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}
