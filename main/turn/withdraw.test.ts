/**
 * A failed attempt's partial answer: withdrawn with an event before the loop moves on, never
 * saved, never part of the final answer; and a stall is retried once, not until the budget ends.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { startHarness } from "./testing.ts";

const SMALL = { connectMs: 5000, firstTokenMs: 5000, idleMs: 500 };
const TEST = { timeout: 30_000 };

test(
  "a stream cut mid-answer is withdrawn, retried, and only the retry is kept",
  TEST,
  async () => {
    const h = await startHarness([
      { text: ["Hello, wor"], truncate: true },
      { text: ["Hello, world!"] },
    ]);
    try {
      const out = await h.session.send("hi");
      assert.equal(out.status, "done");
      assert.equal(out.text, "Hello, world!");
      const withdrawn = h.of("assistant_withdrawn");
      assert.equal(withdrawn.length, 1);
      assert.equal(withdrawn[0].text, "Hello, wor");
      assert.match(withdrawn[0].reason, /ended before the answer finished/);
      // In stream order: the partial, its withdrawal, then the retried answer.
      const order = h.events
        .filter((e) => e.type === "assistant_delta" || e.type === "assistant_withdrawn")
        .map((e) => e.type);
      assert.equal(order.indexOf("assistant_withdrawn"), 1);
      const afterWithdrawal = h.events.slice(h.events.indexOf(withdrawn[0]) + 1);
      const retried = afterWithdrawal.flatMap((e) =>
        e.type === "assistant_delta" ? [e.text] : [],
      );
      assert.equal(retried.join(""), "Hello, world!");
      assert.deepEqual(
        h.of("assistant").map((e) => e.text),
        ["Hello, world!"],
      );
      assert.deepEqual(
        h.session.state.messages.map((m) => [m.role, m.content]),
        [
          ["user", "hi"],
          ["assistant", "Hello, world!"],
        ],
      );
    } finally {
      await h.close();
    }
  },
);

test(
  "a stream that stalls mid-answer hits the idle limit, is withdrawn, and the retry answers",
  TEST,
  async () => {
    const h = await startHarness(
      [{ text: ["Thinking about ", "it"], hang: true }, { text: ["Done."] }],
      { timeouts: SMALL },
    );
    try {
      const out = await h.session.send("hi");
      assert.equal(out.status, "done");
      assert.equal(out.text, "Done.");
      const withdrawn = h.of("assistant_withdrawn");
      assert.deepEqual(
        withdrawn.map((e) => e.text),
        ["Thinking about it"],
      );
      assert.match(withdrawn[0].reason, /\(idle timeout\)/);
      assert.equal(h.of("retry").length, 1);
      assert.deepEqual(
        h.session.state.messages.map((m) => m.content),
        ["hi", "Done."],
      );
    } finally {
      await h.close();
    }
  },
);

test("a stall is retried once, not for the whole retry budget", TEST, async () => {
  const h = await startHarness(
    [{ text: ["a"], hang: true }, { text: ["b"], hang: true }, { text: ["never asked for"] }],
    { timeouts: SMALL, deps: { retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 } } },
  );
  try {
    const out = await h.session.send("hi");
    assert.equal(out.status, "error");
    assert.equal(h.server.chatRequests.length, 2);
    assert.equal(out.error?.timeout, "idle");
    assert.deepEqual(
      h.of("error").map((e) => e.errorType),
      ["network"],
    );
    assert.match(h.of("error")[0].message, /idle timeout/);
    // Both partials were withdrawn; nothing of them is kept.
    assert.deepEqual(
      h.of("assistant_withdrawn").map((e) => e.text),
      ["a", "b"],
    );
    assert.deepEqual(
      h.session.state.messages.map((m) => m.content),
      ["hi"],
    );
  } finally {
    await h.close();
  }
});

test("an attempt that failed before saying anything withdraws nothing", TEST, async () => {
  const h = await startHarness([{ error: { status: 500 } }, { text: ["fine"] }]);
  try {
    const out = await h.session.send("hi");
    assert.equal(out.text, "fine");
    assert.equal(h.of("assistant_withdrawn").length, 0);
  } finally {
    await h.close();
  }
});
