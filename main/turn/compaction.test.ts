import assert from "node:assert/strict";
import { test } from "node:test";
import { splitPoint, transcript } from "./compaction.ts";
import { makeMessage } from "../core/message.ts";

const call = { id: "c1", name: "Read", arguments: { path: "a" } };
const history = [
  makeMessage("user", "one"),
  makeMessage("assistant", "", { toolCalls: [call] }),
  makeMessage("tool", "file a", { toolCallId: "c1", toolName: "Read" }),
  makeMessage("tool", "file b", { toolCallId: "c2", toolName: "Read" }),
  makeMessage("assistant", "done"),
];

test("the kept tail never starts on a tool result", () => {
  assert.equal(
    splitPoint(history, 2),
    1,
    "moves back to the assistant message that made the calls",
  );
  assert.equal(splitPoint(history, 1), 4);
  assert.equal(splitPoint(history, 10), 0);
});

test("the transcript keeps the end when it must be shortened", () => {
  const full = transcript(history, 10_000);
  assert.match(full, /\[user\]\none/);
  assert.match(full, /calls Read \{"path":"a"\}/);
  assert.match(full, /\[Read result\]\nfile a/);
  const short = transcript(history, 40);
  assert.match(short, /^\(\d earliest messages omitted\)/);
  assert.match(short, /done$/);
});
