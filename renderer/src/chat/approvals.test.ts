/** Which tool card an approval question is answered in. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { QuestionAsked } from "../../../main/bridge/contract.ts";
import { matchApprovals } from "./approvals.ts";
import { transcriptOf } from "./transcript.ts";

const asked = (id: string, tool: string, args: Record<string, unknown>): QuestionAsked => ({
  id,
  conversationId: "c",
  question: { kind: "approval", tool, arguments: args, workdir: "/w" },
});

describe("matchApprovals", () => {
  const turns = transcriptOf([
    { type: "user_message", text: "go" },
    { type: "tool_call", id: "1", name: "Write", arguments: { path: "a" } },
    { type: "tool_call", id: "2", name: "Write", arguments: { path: "b" } },
  ]).turns.map((t) => ({
    ...t,
    status: "running" as const,
    items: t.items.map((it) => (it.kind === "tool" ? { ...it, state: "running" as const } : it)),
  }));
  const [first, second] = turns[0].items;

  it("puts each question in the card of the call it asks about", () => {
    const { byItem, unmatched } = matchApprovals(turns, [
      asked("q2", "Write", { path: "b" }),
      asked("q1", "Write", { path: "a" }),
    ]);
    assert.equal(byItem.get(first.id)?.id, "q1");
    assert.equal(byItem.get(second.id)?.id, "q2");
    assert.deepEqual(unmatched, []);
  });

  it("a question with no running card of its tool is shown on its own", () => {
    const { byItem, unmatched } = matchApprovals(turns, [asked("q3", "Bash", { command: "ls" })]);
    assert.equal(byItem.size, 0);
    assert.deepEqual(
      unmatched.map((q) => q.id),
      ["q3"],
    );
  });
});
