/** Which tool card each approval question belongs to: the running call of that tool and arguments. */
import type { QuestionAsked } from "../../../main/bridge/contract.ts";
import type { Turn } from "./transcript.ts";

const NONE = { byItem: new Map<number, QuestionAsked>(), unmatched: [] as QuestionAsked[] };

export function matchApprovals(
  turns: Turn[],
  approvals: QuestionAsked[],
): { byItem: Map<number, QuestionAsked>; unmatched: QuestionAsked[] } {
  // The same (empty) answer while nothing is asked, so streaming does not re-render every turn.
  if (approvals.length === 0) return NONE;
  const byItem = new Map<number, QuestionAsked>();
  const unmatched: QuestionAsked[] = [];
  const running = (turns.at(-1)?.items ?? []).filter(
    (it) => it.kind === "tool" && it.state === "running",
  );
  for (const asked of approvals) {
    const q = asked.question;
    if (q.kind !== "approval") continue;
    const free = running.filter(
      (it) => !byItem.has(it.id) && it.kind === "tool" && it.name === q.tool,
    );
    const args = JSON.stringify(q.arguments);
    const item =
      free.find((it) => it.kind === "tool" && JSON.stringify(it.arguments) === args) ?? free[0];
    if (item) byItem.set(item.id, asked);
    else unmatched.push(asked);
  }
  return { byItem, unmatched };
}
