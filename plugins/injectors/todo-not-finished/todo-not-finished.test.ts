/** todo-not-finished through the real engine: stopping with open todos earns a warning. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/engine/testing.ts";

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

test("stopping with open todos: a warning, and the model another step to act on it", async () => {
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
    assert.ok(r.kind === "turn" && r.outcome.text === "All three steps are done.");
    assert.equal(h.server.chatRequests.length, 4);
    const injected = h.of("injected");
    assert.equal(injected.length, 1, "no warning once everything is completed");
    assert.deepEqual(
      [injected[0].source, injected[0].role, injected[0].text],
      ["todo-not-finished", "user", WARNING],
    );
    const last = h.sent(2).at(-1)!;
    assert.deepEqual([last.role, last.content], ["user", WARNING]);
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

test("after max_reminders warnings in one turn the user gets a notice and the turn ends", async () => {
  const h = await startPluginHarness({
    plugins: { "todo-not-finished": plugin },
    layout,
    features: "plugins:\n  config:\n    local:\n      todo-not-finished: { max_reminders: 2 }\n",
    script: [
      plan(["in_progress", "pending"]),
      { text: ["stop 1"] },
      { text: ["stop 2"] },
      { text: ["stop 3"] },
      { text: ["spare"] },
    ],
  });
  try {
    const r = await h.conversation.submit("go");
    assert.ok(r.kind === "turn" && r.outcome.text === "stop 3");
    assert.equal(h.server.chatRequests.length, 4);
    assert.equal(h.of("injected").length, 2);
    assert.deepEqual(
      h.of("notice").map((n) => [n.source, n.text]),
      [
        [
          "todo-not-finished",
          "The model stopped with 1 in progress and 1 pending todo items of 2 still open.",
        ],
      ],
    );
  } finally {
    await h.close();
  }
});
