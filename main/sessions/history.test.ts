/** Display events in session files: saved in order, skipped by plain loads, checked when read. */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { test } from "node:test";
import { displayHistory } from "./history.ts";
import { encodeRecord } from "./records.ts";
import { reconstruct } from "./reconstruct.ts";
import { metaLine, msg, storeWithSession } from "./testing.ts";
import { formatProblem } from "../host/problem.ts";

const fallback = { id: "s", createdAt: "2026-11-21T10:00:00.000Z" };

test("a history keeps the events after a compaction reset; a plain load ignores them", async (t) => {
  const { store, id } = await storeWithSession(t);
  store.append(id, [
    { t: "event", event: { type: "user_message", text: "hello" } },
    { t: "message", message: msg("a", "user", "hello") },
    { t: "event", event: { type: "assistant", text: "hi there" } },
    { t: "message", message: msg("b", "assistant", "hi there") },
    { t: "reset", messages: [msg("s", "user", "summary", { kind: "summary" })] },
    {
      t: "event",
      event: { type: "compaction", forced: false, success: true, preMessages: 2, postMessages: 1 },
    },
  ]);
  const plain = await store.load(id);
  assert.equal(plain.history, null);
  assert.deepEqual(plain.warnings, []);
  assert.deepEqual(
    plain.messages.map((m) => m.id),
    ["s"],
  );
  const full = await store.load(id, { history: true });
  assert.deepEqual(displayHistory(full.history!), {
    events: [
      { type: "user_message", text: "hello" },
      { type: "assistant", text: "hi there" },
      { type: "compaction", forced: false, success: true, preMessages: 2, postMessages: 1 },
    ],
    warnings: [],
  });
});

test("the store refuses an event record without a type; a damaged one in a file is skipped with its line", async (t) => {
  const { store, id } = await storeWithSession(t);
  assert.throws(
    () => store.append(id, { t: "event", event: {} as never }),
    /refusing to append to session .*: event.type must be a string/,
  );
  const good = encodeRecord({ t: "event", event: { type: "notice", source: "p", text: "ok" } });
  const badShape = encodeRecord({
    t: "event",
    event: { type: "notice", source: "p" } as never,
  });
  const text = [
    metaLine("s").trimEnd(),
    good.trimEnd(),
    badShape.trimEnd(),
    '{"t":"event","event":"nonsense"}',
    '{"t":"event","event":{"type":"notice","sou',
  ].join("\n");
  const state = reconstruct(text, "s.jsonl", fallback, { history: true });
  assert.deepEqual(state.warnings.map(formatProblem), [
    "s.jsonl:4: skipped line: event.event must be an object",
    "s.jsonl:5: dropped torn last line",
  ]);
  const history = displayHistory(state.history!);
  assert.deepEqual(history.events, [{ type: "notice", source: "p", text: "ok" }]);
  assert.equal(history.warnings.length, 1);
  assert.match(formatProblem(history.warnings[0]), /^s\.jsonl:3: skipped event: text: /);
  // The same file loads for a resume without a word about its events.
  writeFileSync(store.fileOf(id), text);
  const plain = await store.load(id);
  assert.deepEqual(plain.warnings, []);
});
