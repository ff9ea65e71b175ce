/** session-stats through the real engine: a summary every 5 turns, for the user (or the model). */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { ScriptedResponse } from "../../../main/providers/testing/index.ts";
import { startPluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "session-stats": "injectors/session-stats" };

// Five tool steps (turns 1-5), then the answer (turn 6) and one more user turn (turn 7).
const script: ScriptedResponse[] = [
  { toolCalls: [{ name: "Ls", arguments: {} }] },
  { toolCalls: [{ name: "Ls", arguments: {} }] },
  { toolCalls: [{ name: "Read", arguments: { path: "missing.txt" } }] },
  { toolCalls: [{ name: "Glob", arguments: { pattern: "*.md" } }] },
  { toolCalls: [{ name: "Ls", arguments: {} }] },
  { text: ["done"] },
  { text: ["again"] },
];
const SUMMARY =
  /^Session stats: 5 turns \| 5 tool calls \(1 failed\) \| context [\d,]+ tokens( \(\d+% of [\d,]+\))? \| top tools: Ls 3, Glob 1, Read 1 \| tokens in\/out 50\/25 \| \d+s$/;

test("after every 5th turn the user gets a notice with the session's stats; the model does not", async () => {
  const h = await startPluginHarness({ plugins: { "session-stats": plugin }, layout, script });
  try {
    await h.conversation.submit("look around");
    await h.conversation.submit("and again");
    const notices = h.of("notice").filter((n) => n.source === "session-stats");
    assert.equal(notices.length, 1, JSON.stringify(notices));
    assert.match(notices[0].text, SUMMARY);
    assert.equal(h.of("injected").length, 0);
    for (let i = 0; i < h.server.chatRequests.length; i++)
      assert.ok(!JSON.stringify(h.sent(i)).includes("Session stats"), `request ${i}`);
  } finally {
    await h.close();
  }
});

test("to_model: true sends the summary to the model once, as an ejected user message", async () => {
  const h = await startPluginHarness({
    plugins: { "session-stats": plugin },
    layout,
    features: "plugins:\n  config:\n    local:\n      session-stats: { to_model: true, top: 1 }\n",
    script,
  });
  try {
    await h.conversation.submit("look around");
    await h.conversation.submit("and again");
    const last = h.sent(5).at(-1)!;
    assert.equal(last.role, "user");
    assert.match(
      last.content,
      /^\[session-stats\] Session stats: 5 turns \| .* \| top tools: Ls 3 \|/,
    );
    assert.ok(!JSON.stringify(h.sent(6)).includes("Session stats"), "ejected after one turn");
    assert.equal(h.of("notice").filter((n) => n.source === "session-stats").length, 0);
  } finally {
    await h.close();
  }
});
