/** todo-reminder through the real engine: the reminder reaches the model every N iterations. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "todo-reminder": "injectors/todo-reminder" };
const REMINDER =
  /^\[todo-reminder\] Your todo list still has 1 in progress and 1 pending \(2 items in all\)\./;

test("with open todos, every Nth iteration carries a one-time reminder (config every: 2)", async () => {
  const h = await startPluginHarness({
    plugins: { "todo-reminder": plugin },
    layout,
    features: "plugins:\n  config:\n    local:\n      todo-reminder: { every: 2 }\n",
    script: [
      {
        toolCalls: [
          {
            name: "TodoWrite",
            arguments: {
              todos: [
                { content: "read the code", status: "in_progress" },
                { content: "fix the bug", status: "pending" },
              ],
            },
          },
        ],
      },
      { toolCalls: [{ name: "Ls", arguments: {} }] },
      { toolCalls: [{ name: "Ls", arguments: {} }] },
      { text: ["still working"] },
    ],
  });
  try {
    await h.conversation.submit("fix the bug");
    assert.equal(h.server.chatRequests.length, 4);
    const reminders = (i: number) =>
      h.sent(i).filter((m) => m.role === "user" && REMINDER.test(m.content));
    assert.equal(reminders(0).length, 0, "iteration 1: no reminder");
    assert.equal(reminders(1).length, 1, "iteration 2: reminder");
    assert.equal(h.sent(1).at(-1)?.role, "user");
    assert.match(h.sent(1).at(-1)!.content, REMINDER);
    assert.equal(reminders(2).length, 0, "iteration 3: the reminder was ejected");
    assert.equal(reminders(3).length, 1, "iteration 4: reminded again");
    const injected = h.of("injected").filter((e) => e.source === "todo-reminder");
    assert.equal(injected.length, 2);
    assert.equal(injected[0].role, "user");
  } finally {
    await h.close();
  }
});

test("by default the reminder comes on the 20th iteration", async () => {
  const h = await startPluginHarness({
    plugins: { "todo-reminder": plugin },
    layout,
    script: [
      {
        toolCalls: [
          {
            name: "TodoWrite",
            arguments: {
              todos: [
                { content: "read the code", status: "in_progress" },
                { content: "fix the bug", status: "pending" },
              ],
            },
          },
        ],
      },
      ...Array.from({ length: 20 }, () => ({ toolCalls: [{ name: "Ls", arguments: {} }] })),
      { text: ["done"] },
    ],
  });
  try {
    await h.conversation.submit("go");
    assert.equal(h.server.chatRequests.length, 22);
    const carrying = h.server.chatRequests
      .map((_, i) => i)
      .filter((i) => h.sent(i).some((m) => REMINDER.test(m.content)));
    assert.deepEqual(carrying, [19], "only the request of iteration 20");
  } finally {
    await h.close();
  }
});

test("no reminder once every todo is completed", async () => {
  const h = await startPluginHarness({
    plugins: { "todo-reminder": plugin },
    layout,
    features: "plugins:\n  config:\n    local:\n      todo-reminder: { every: 1 }\n",
    script: [
      {
        toolCalls: [
          { name: "TodoWrite", arguments: { todos: [{ content: "x", status: "completed" }] } },
        ],
      },
      { toolCalls: [{ name: "Ls", arguments: {} }] },
      { text: ["ok"] },
    ],
  });
  try {
    await h.conversation.submit("go");
    assert.equal(h.server.chatRequests.length, 3);
    assert.equal(h.of("injected").length, 0);
    for (let i = 0; i < 3; i++)
      assert.ok(!JSON.stringify(h.sent(i)).includes("[todo-reminder]"), `request ${i}`);
  } finally {
    await h.close();
  }
});
