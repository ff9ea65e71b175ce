/**
 * The engine's questions at a terminal: tool approval is asked on stderr and answered on stdin;
 * kinds without a terminal prompt yet get their safe default.
 */
import { createInterface } from "node:readline/promises";
import {
  NOBODY,
  type AnswerFor,
  type QuestionKind,
  type QuestionOf,
  type QuestionPort,
} from "../host/questions.ts";

const APPROVAL_KEYS: Record<string, AnswerFor<"approval">> = {
  y: "allow",
  n: "deny",
  a: "always",
  v: "never",
};

function preview(args: Record<string, unknown>): string {
  const text = typeof args.command === "string" ? args.command : JSON.stringify(args);
  return text.length > 300 ? `${text.slice(0, 297)}…` : text;
}

async function askApproval(
  q: QuestionOf<"approval">,
  signal: AbortSignal | undefined,
): Promise<AnswerFor<"approval">> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    for (;;) {
      const line = await rl.question(
        `Allow ${q.tool}: ${preview(q.arguments)}\n  [y]es / [n]o / [a]lways / ne[v]er > `,
        { signal },
      );
      const answer = APPROVAL_KEYS[line.trim().toLowerCase().slice(0, 1)];
      if (answer) return answer;
    }
  } finally {
    rl.close();
  }
}

export function ttyQuestions(): QuestionPort {
  return {
    ask<K extends QuestionKind>(question: QuestionOf<K>, signal?: AbortSignal) {
      const q = question as QuestionOf<QuestionKind>;
      if (q.kind === "approval") return askApproval(q, signal) as Promise<AnswerFor<K>>;
      return NOBODY.ask(question, signal);
    },
  };
}
