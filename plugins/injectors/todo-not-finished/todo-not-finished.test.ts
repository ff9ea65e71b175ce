/** todo-not-finished through the real engine: stopping with open todos earns a warning. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/plugins/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "todo-not-finished": "injectors/todo-not-finished" };
const WARNING =
  "[todo-not-finished] You stopped, but your todo list still has 1 in progress and 1 pending (3 items in all). Continue with the next open item. If an item is no longer needed or cannot be done, update the list with TodoWrite and say why.";
const plan = (statuses: string[]) => ({
  toolCalls: [
    {
      name: "TodoWrite",
      arguments: {
        todos: statuses.map((status, i) => ({ content: `step ${i + 1}`, status })),
      },
    },
  ],
});

// See empty-response.test.ts: the seed continues the turn after an AfterResponse message; Islet's
// loop does not yet, so the warning reaches the model with the next request either way.
const CONTINUATION_GAP =
  "engine: an AfterResponse message does not yet force another iteration (main/agent/loop.ts)";

test("stopping with open todos injects a warning the model receives; finishing them does not", async () => {
  const h = await startPluginHarness({
    plugins: { "todo-not-finished": plugin },
    layout,
    script: [
      plan(["completed", "in_progress", "pending"]),
      { text: ["I think that is it."] },
      plan(["completed", "completed", "completed"]),
      { text: ["All three steps are done."] },
      { text: ["Anything else?"] },
    ],
  });
  try {
    await h.conversation.submit("do the three steps");
    const injected = h.of("injected");
    assert.equal(injected.length, 1);
    assert.equal(injected[0].source, "todo-not-finished");
    assert.equal(injected[0].role, "user");
    assert.equal(injected[0].text, WARNING);
    await h.conversation.submit("go on");
    const carried = h.sent(2).filter((m) => m.content === WARNING);
    assert.equal(carried.length, 1, "the model got the warning");
    assert.equal(carried[0].role, "user");
    assert.equal(h.of("injected").length, 1, "no warning once everything is completed");
  } finally {
    await h.close();
  }
});

test("no warning while the model is still calling tools, nor without a todo list", async () => {
  const h = await startPluginHarness({
    plugins: { "todo-not-finished": plugin },
    layout,
    script: [
      plan(["in_progress"]),
      { text: ["Working on it."], toolCalls: [{ name: "Ls", arguments: {} }] },
      plan([]),
      { text: ["Cleared the list."] },
    ],
  });
  try {
    await h.conversation.submit("go");
    assert.equal(h.server.chatRequests.length, 4);
    assert.equal(h.of("injected").length, 0);
  } finally {
    await h.close();
  }
});

test(
  "seed: the warning forces another iteration within the same turn",
  { todo: CONTINUATION_GAP },
  async () => {
    const h = await startPluginHarness({
      plugins: { "todo-not-finished": plugin },
      layout,
      script: [
        plan(["completed", "in_progress", "pending"]),
        { text: ["I think that is it."] },
        plan(["completed", "completed", "completed"]),
        { text: ["All three steps are done."] },
      ],
    });
    try {
      const r = await h.conversation.submit("do the three steps");
      assert.equal(h.server.chatRequests.length, 4);
      assert.equal(h.sent(2).at(-1)?.content, WARNING);
      assert.ok(r.kind === "turn" && r.outcome.text === "All three steps are done.");
    } finally {
      await h.close();
    }
  },
);
