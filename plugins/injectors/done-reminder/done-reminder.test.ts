/** done-reminder through the real engine: stopping without Done earns a reminder. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "done-reminder": "injectors/done-reminder" };
const REMINDER =
  "[done-reminder] You stopped without calling Done. If the task is complete, call Done with a short summary of what you did. If it is not, keep working on it.";
const done = { toolCalls: [{ name: "Done", arguments: { summary: "Fixed the typo." } }] };

test("an answer without Done, while Done is offered: a reminder, and the model calls Done", async () => {
  const h = await startPluginHarness({
    plugins: { "done-reminder": plugin },
    layout,
    script: [{ text: ["I fixed the typo."] }, done],
  });
  try {
    const r = await h.conversation.submit("fix the typo");
    assert.ok(r.kind === "turn" && r.outcome.status === "done");
    assert.equal(h.server.chatRequests.length, 2);
    const injected = h.of("injected");
    assert.equal(injected.length, 1, "calling Done earns no reminder");
    assert.deepEqual(
      [injected[0].source, injected[0].role, injected[0].text],
      ["done-reminder", "user", REMINDER],
    );
    const last = h.sent(1).at(-1)!;
    assert.deepEqual([last.role, last.content], ["user", REMINDER]);
    assert.ok(h.of("tool_result").some((t) => t.name === "Done" && !t.error));
  } finally {
    await h.close();
  }
});

test("at most max_reminders reminders a turn", async () => {
  const h = await startPluginHarness({
    plugins: { "done-reminder": plugin },
    layout,
    script: [{ text: ["one"] }, { text: ["two"] }, { text: ["three"] }, { text: ["spare"] }],
  });
  try {
    const r = await h.conversation.submit("chat");
    assert.ok(r.kind === "turn" && r.outcome.text === "three");
    assert.equal(h.server.chatRequests.length, 3);
    assert.equal(h.sent(1).at(-1)?.content, REMINDER);
    assert.equal(h.sent(2).at(-1)?.content, REMINDER);
  } finally {
    await h.close();
  }
});

test("no reminder when Done is not offered this step", async () => {
  const h = await startPluginHarness({
    plugins: {
      "done-reminder": plugin,
      "no-done": { code: `export function beforeChat() { return { disableTools: ["Done"] }; }` },
    },
    layout,
    script: [
      { text: ["Let me look."], toolCalls: [{ name: "Ls", arguments: {} }] },
      { text: ["Here is the listing."] },
    ],
  });
  try {
    await h.conversation.submit("list the files");
    assert.equal(h.server.chatRequests.length, 2);
    assert.equal(h.of("injected").length, 0);
  } finally {
    await h.close();
  }
});

test("an empty answer is left to empty-response", async () => {
  const h = await startPluginHarness({
    plugins: { "done-reminder": plugin },
    layout,
    script: [{ text: [] }],
  });
  try {
    await h.conversation.submit("hello?");
    assert.equal(h.of("injected").length, 0);
    assert.equal(h.server.chatRequests.length, 1);
  } finally {
    await h.close();
  }
});
