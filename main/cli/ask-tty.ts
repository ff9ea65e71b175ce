/** Tool approval at a terminal: one question per call on stderr, answered on stdin. */
import { createInterface } from "node:readline/promises";
import type { ApprovalAnswer, AskApproval } from "../tools/approval.ts";

const ANSWERS: Record<string, ApprovalAnswer> = { y: "allow", n: "deny", a: "always", v: "never" };

function preview(args: Record<string, unknown>): string {
  const text = typeof args.command === "string" ? args.command : JSON.stringify(args);
  return text.length > 300 ? `${text.slice(0, 297)}…` : text;
}

export function ttyApproval(): AskApproval {
  return async (req) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      for (;;) {
        const answer = (
          await rl.question(
            `Allow ${req.toolName}: ${preview(req.args)}\n  [y]es / [n]o / [a]lways / ne[v]er > `,
          )
        )
          .trim()
          .toLowerCase()
          .slice(0, 1);
        if (ANSWERS[answer]) return ANSWERS[answer];
      }
    } finally {
      rl.close();
    }
  };
}
