/** done-reminder through the real engine: stopping without Done earns a reminder. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/plugins/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "done-reminder": "injectors/done-reminder" };
const REMINDER =
  "[done-reminder] You stopped without calling Done. If the task is complete, call Done with a short summary of what you did. If it is not, keep working on it.";
const done = { toolCalls: [{ name: "Done", arguments: { summary: "Fixed the typo." } }] };

// See empty-response.test.ts: the seed continues the turn after an AfterResponse message; Islet's
// loop does not yet, so the reminder reaches the model with the next request either way.
const CONTINUATION_GAP =
  "engine: an AfterResponse message does not yet force another iteration (main/agent/loop.ts)";

test("an answer without Done, while Done is offered, gets a reminder the model receives", async () => {
  const h = await startPluginHarness({
    plugins: { "done-reminder": plugin },
    layout,
    script: [{ text: ["I fixed the typo."] }, done, done],
  });
  try {
    await h.conversation.submit("fix the typo");
    const injected = h.of("injected");
    assert.equal(injected.length, 1);
    assert.deepEqual(
      { source: injected[0].source, role: injected[0].role, text: injected[0].text },
      { source: "done-reminder", role: "user", text: REMINDER },
    );
    await h.conversation.submit("ok");
    const carried = h.sent(1).filter((m) => m.content === REMINDER);
    assert.equal(carried.length, 1);
    assert.equal(carried[0].role, "user");
    assert.ok(h.of("tool_result").some((r) => r.name === "Done" && !r.error));
    assert.equal(h.of("injected").length, 1, "calling Done earns no reminder");
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
  } finally {
    await h.close();
  }
});

test(
  "seed: the reminder forces another iteration, at most max_reminders times a turn",
  { todo: CONTINUATION_GAP },
  async () => {
    const h = await startPluginHarness({
      plugins: { "done-reminder": plugin },
      layout,
      script: [{ text: ["one"] }, { text: ["two"] }, { text: ["three"] }],
    });
    try {
      const r = await h.conversation.submit("chat");
      assert.equal(h.server.chatRequests.length, 3);
      assert.equal(h.sent(1).at(-1)?.content, REMINDER);
      assert.equal(h.sent(2).at(-1)?.content, REMINDER);
      assert.ok(r.kind === "turn" && r.outcome.text === "three");
    } finally {
      await h.close();
    }
  },
);
