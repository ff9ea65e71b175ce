/** turn-tracker (the seed's example) through the real engine: status lines and long answers. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "turn-tracker": "diagnostics/turn-tracker" };
const STATUS =
  /^\[turn-tracker\] === TURN (\d+) \| context: \d+ tokens \(\d+%\) \| agent: default \| model: (\S+) \| messages: (\d+) ===$/;

test("every 3rd turn the model gets a status line, ejected after one turn", async () => {
  const ls = { toolCalls: [{ name: "Ls", arguments: {} }] };
  const h = await startPluginHarness({
    plugins: { "turn-tracker": plugin },
    layout,
    script: [ls, ls, ls, ls, ls, ls, { text: ["done"] }],
  });
  try {
    await h.conversation.submit("look around");
    assert.equal(h.server.chatRequests.length, 7);
    const withStatus = h.server.chatRequests
      .map((_, i) => i)
      .filter((i) => h.sent(i).some((m) => STATUS.test(m.content)));
    assert.deepEqual(withStatus, [3, 6], "after turns 3 and 6, and only in that request");
    const line = h.sent(3).at(-1)!;
    assert.equal(line.role, "user");
    const m = STATUS.exec(line.content)!;
    assert.equal(m[1], "3");
    assert.equal(m[2], "m");
    // user prompt + 3 × (assistant call, tool result): 7 messages when the hook ran.
    assert.equal(m[3], "7");
    assert.equal(STATUS.exec(h.sent(6).at(-1)!.content)?.[1], "6");
  } finally {
    await h.close();
  }
});

test("a response over 5000 characters earns a note (assistant role, as in the seed)", async () => {
  const long = "x".repeat(5001);
  const h = await startPluginHarness({
    plugins: { "turn-tracker": plugin },
    layout,
    script: [{ text: ["short answer"] }, { text: [long] }, { text: ["Sorry, I will be brief."] }],
  });
  try {
    await h.conversation.submit("one");
    assert.equal(h.of("injected").length, 0, "a short answer gets no note");
    const r = await h.conversation.submit("two");
    const note =
      "[turn-tracker] Last response was 5001 characters -- that's very long. Consider asking for shorter answers.";
    assert.deepEqual(
      h.of("injected").map((e) => [e.source, e.role, e.text]),
      [["turn-tracker", "assistant", note]],
    );
    // Like every AfterResponse message, the note gets the model another step, which sees it.
    assert.ok(r.kind === "turn" && r.outcome.text === "Sorry, I will be brief.");
    const last = h.sent(2).at(-1)!;
    assert.deepEqual([last.role, last.content], ["assistant", note]);
  } finally {
    await h.close();
  }
});
