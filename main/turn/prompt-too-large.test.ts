// A first message that does not fit: the error names the system prompt and tools, not the chat.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startHarness } from "./testing.ts";

test("a first message that cannot fit says the system prompt and tools do not, not to compact", async () => {
  const tooBig = { error: { status: 400, code: "context_length_exceeded" } };
  const h = await startHarness([tooBig, tooBig]);
  try {
    const out = await h.session.send("hello");
    const [error] = h.of("error");
    assert.ok(error, JSON.stringify(out));
    assert.equal(error.errorType, "context_exhausted");
    assert.match(
      error.message,
      /cannot hold this first message: the system prompt \(~\d+ tokens\) and \d+ tool descriptions/,
    );
    assert.match(error.message, /larger context_length|fewer tools/);
    assert.doesNotMatch(error.message, /compact the conversation/);
  } finally {
    await h.close();
  }
});
