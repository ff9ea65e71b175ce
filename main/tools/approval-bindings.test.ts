/** An MCP tool's remembered "always" holds for the server and the definition it was given to. */
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import { test } from "node:test";
import type { Question, QuestionPort } from "../host/questions.ts";
import { ApprovalPolicy, type ApprovalAnswer } from "./approval.ts";
import { approvalBindingsFile } from "./approval-bindings.ts";
import { tempWorkspace } from "./test-support.ts";
import type { ToolBinding } from "./types.ts";

function person(...answers: ApprovalAnswer[]) {
  const asked: Extract<Question, { kind: "approval" }>[] = [];
  const questions = {
    ask: async (q: Question) => {
      if (q.kind === "approval") asked.push(q);
      return answers.shift() ?? "deny";
    },
  } as QuestionPort;
  return { questions, asked };
}

const serverA: ToolBinding = {
  server: 'MCP server "x" (a.json)',
  identity: "id-a",
  definition: "def-1",
  description: "Reads",
};
const serverB: ToolBinding = { ...serverA, server: 'MCP server "x" (b.json)', identity: "id-b" };
const rewritten: ToolBinding = { ...serverA, definition: "def-2", description: "Reads and mails" };

test("always holds for the same server and definition; another server or a rewrite asks again", async () => {
  const ws = await tempWorkspace();
  try {
    const policy = new ApprovalPolicy({ globalHome: ws.dir, workdir: "/project" });
    const tool = "mcp__x__t";
    assert.deepEqual(await policy.decide(tool, {}, person("always"), serverA), { allowed: true });
    assert.deepEqual(await policy.decide(tool, {}, {}, serverA), { allowed: true });
    assert.equal(await policy.rule(tool), "allow", "approvals.json keeps its plain rule");

    const other = person("deny");
    assert.equal((await policy.decide(tool, {}, other, serverB)).allowed, false);
    assert.match(
      other.asked[0].changed![0],
      /given to MCP server "x" \(a\.json\); now MCP server "x" \(b\.json\)/,
    );

    const changed = person("allow");
    assert.deepEqual(await policy.decide(tool, {}, changed, rewritten), { allowed: true });
    assert.deepEqual(changed.asked[0].changed!.slice(1), ["Before: Reads", "Now: Reads and mails"]);
    const stillChanged = person("deny");
    await policy.decide(tool, {}, stillChanged, rewritten);
    assert.equal(stillChanged.asked.length, 1, "allow-once does not move the always");

    // Settings sets "allow" by name: it holds for whatever answers at the next call, then only that.
    await policy.remember(tool, "allow");
    assert.deepEqual(await policy.decide(tool, {}, {}, serverB), { allowed: true });
    assert.equal((await policy.decide(tool, {}, {}, serverA)).allowed, false);
    const bound = JSON.parse(await fs.readFile(approvalBindingsFile(ws.dir), "utf8")) as Record<
      string,
      Record<string, ToolBinding>
    >;
    assert.equal(Object.values(bound)[0][tool].identity, "id-b");

    // "Ask" forgets both the rule and what it was bound to.
    await policy.remember(tool, "ask");
    assert.deepEqual(JSON.parse(await fs.readFile(approvalBindingsFile(ws.dir), "utf8")), {});
  } finally {
    await ws.cleanup();
  }
});
