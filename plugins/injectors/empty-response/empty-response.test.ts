/** empty-response through the real engine: an empty answer gets a nudge the model receives. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "empty-response": "injectors/empty-response" };
const NUDGE =
  "[empty-response] Your last response was empty. Please continue: answer the request above, or call a tool if you need one.";

test("an empty answer gets a user-role nudge, and the model another step to answer it", async () => {
  const h = await startPluginHarness({
    plugins: { "empty-response": plugin },
    layout,
    script: [{ text: [] }, { text: ["The answer is 42."] }],
  });
  try {
    const r = await h.conversation.submit("What is the answer?");
    assert.ok(r.kind === "turn" && r.outcome.text === "The answer is 42.");
    const injected = h.of("injected");
    assert.equal(injected.length, 1, "a real answer gets no nudge");
    assert.deepEqual(
      { source: injected[0].source, role: injected[0].role, text: injected[0].text },
      { source: "empty-response", role: "user", text: NUDGE },
    );
    assert.equal(h.server.chatRequests.length, 2);
    const last = h.sent(1).at(-1)!;
    assert.deepEqual([last.role, last.content], ["user", NUDGE]);
  } finally {
    await h.close();
  }
});

test("a thinking-only answer is called out as such", async () => {
  const h = await startPluginHarness({
    plugins: { "empty-response": plugin },
    layout,
    script: [{ thinking: ["hmm, let me see"], text: [] }, { text: ["42"] }],
  });
  try {
    await h.conversation.submit("What is the answer?");
    assert.match(
      h.sent(1).at(-1)!.content,
      /^\[empty-response\] Your last response had reasoning but no answer and no tool call\./,
    );
  } finally {
    await h.close();
  }
});

test("after max_retries nudges in one turn the user is told instead, and the turn ends", async () => {
  const h = await startPluginHarness({
    plugins: { "empty-response": plugin },
    layout,
    script: [{ text: [] }, { text: [] }, { text: [] }, { text: [] }, { text: ["42"] }],
  });
  try {
    await h.conversation.submit("What is the answer?");
    assert.equal(h.server.chatRequests.length, 3);
    assert.equal(h.of("injected").length, 2);
    assert.deepEqual(
      h.of("notice").map((n) => [n.source, n.text]),
      [
        [
          "empty-response",
          "The model answered with nothing 3 times in a row; try rephrasing the request or another model.",
        ],
      ],
    );
    // The next user turn starts a fresh count.
    await h.conversation.submit("Please answer.");
    assert.equal(h.server.chatRequests.length, 5);
    assert.equal(h.sent(4).at(-1)?.content, NUDGE);
  } finally {
    await h.close();
  }
});
