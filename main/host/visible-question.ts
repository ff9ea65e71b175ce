/**
 * A question as it may be shown to a person: every string in it (a plugin's name and reasons, a
 * hook's command, a commit's subject, a model's "why"…) with its control and invisible
 * characters made visible, one line each (main/core/visible-text.ts). Every way of asking (the
 * terminal, the native dialog, the app's dialogs) shows this, never the question as received.
 * A tool call's arguments are the exception: `argumentsText` shows them in full, lines kept.
 */
import { visibleText } from "../core/visible-text.ts";
import type { Question, QuestionKind, QuestionOf } from "./questions.ts";

function visibleStrings(value: unknown): unknown {
  if (typeof value === "string") return visibleText(value);
  if (Array.isArray(value)) return value.map(visibleStrings);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visibleStrings(v)]));
  return value;
}

/** `question` with every string shown safely; an approval's `arguments` are left as they are. */
export function visibleQuestion<K extends QuestionKind>(question: QuestionOf<K>): QuestionOf<K> {
  const shown = visibleStrings(question) as QuestionOf<K>;
  const q = question as Question;
  // The arguments are shown by `argumentsText`, which keeps a command's lines; a file change's
  // texts go to a diff view that shows their lines and marks what is invisible itself.
  if (q.kind !== "approval") return shown;
  return {
    ...shown,
    arguments: q.arguments,
    ...(q.change ? { change: q.change } : {}),
  } as QuestionOf<K>;
}

/**
 * What a tool call would run, in full: the command as written (its lines kept) or all the
 * arguments as JSON, with every control and invisible character shown. Never shortened: a cut
 * would let a harmless head hide what the tail runs.
 */
export function argumentsText(args: Record<string, unknown>): string {
  const text = typeof args.command === "string" ? args.command : JSON.stringify(args, null, 2);
  return visibleText(text, { lines: true });
}
