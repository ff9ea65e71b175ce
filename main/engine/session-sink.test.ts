/** How the engine writes display events: referenced when a message holds their text, else whole. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { AgentEvent } from "../core/events.ts";
import { displayHistory } from "../sessions/history.ts";
import { msg, storeWithSession } from "../sessions/testing.ts";
import { savingEmit, storeSink } from "./session-sink.ts";

test("events are saved in order; a text the next message holds is referenced, a rewritten one kept whole", async (t) => {
  const { store, id } = await storeWithSession(t);
  const sink = storeSink(store, id, (err) => assert.fail(err));
  const passed: AgentEvent[] = [];
  const emit = savingEmit((e) => passed.push(e), sink);
  const stream: AgentEvent[] = [
    { type: "user_message", text: "PROMPT-TEXT" },
    { type: "assistant_delta", text: "ORIGINAL" },
    { type: "thinking", text: "THINKING-TEXT" },
    { type: "assistant", text: "ORIGINAL-ANSWER" },
    { type: "tool_call", id: "c1", name: "Read", arguments: { path: "a" } },
    { type: "tokens", tokens: { estimate: 1, lastApi: 1, percent: 1, max: 100 } },
  ];
  emit(stream[0]);
  sink.appendMessage(msg("u1", "user", "PROMPT-TEXT"));
  for (const e of stream.slice(1)) emit(e);
  // An AfterResponse hook rewrote the answer before it entered history.
  sink.appendMessage(
    msg("a1", "assistant", "REWRITTEN", {
      thinking: "THINKING-TEXT",
      toolCalls: [{ id: "c1", name: "Read", arguments: { path: "a" } }],
    }),
  );
  emit({
    type: "tool_result",
    id: "c1",
    name: "Read",
    output: "OUTPUT-TEXT",
    error: false,
    durationMs: 5,
  });
  sink.appendMessage(msg("t1", "tool", "OUTPUT-TEXT", { toolCallId: "c1", toolName: "Read" }));
  // A kept-out answer has no message: it is saved whole when anything else is written.
  emit({ type: "assistant", text: "SKIPPED-ANSWER" });
  sink.setStats({
    startTime: "2026-11-21T10:00:00.000Z",
    duration: 1,
    interactions: 1,
    turns: 1,
    iterations: 1,
    tools: { calls: 1, errors: 0 },
    parseRetries: 0,
    compactions: 0,
    tokens: { in: 1, out: 1 },
    topTools: [],
  });
  await sink.flush();

  assert.equal(passed.length, 8, "every event is passed on, saved or not");
  const file = readFileSync(store.fileOf(id), "utf8");
  for (const text of ["PROMPT-TEXT", "THINKING-TEXT", "OUTPUT-TEXT"])
    assert.equal(file.split(text).length - 1, 1, `${text} is written once`);
  assert.equal(file.split("ORIGINAL-ANSWER").length - 1, 1, "the streamed answer is kept whole");
  const loaded = await store.load(id, { history: true });
  assert.deepEqual(
    displayHistory(loaded.history!).events,
    passed.filter((e) => !["assistant_delta", "tokens"].includes(e.type)),
  );
});
