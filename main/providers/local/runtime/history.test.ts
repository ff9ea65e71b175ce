import { test } from "node:test";
import assert from "node:assert/strict";
import { conversationKey, toChatHistory } from "./history.ts";
import { ToolOutput } from "./tool-syntax.ts";

test("history: an agent's steps (calls, results, continuation) are one model response", () => {
  const items = toChatHistory("Be brief.", [
    { role: "user", content: "read a" },
    {
      role: "assistant",
      content: "Reading.",
      thinking: "plan",
      toolCalls: [
        {
          id: "c1",
          name: "Read",
          arguments: { path: "a" },
          raw: [{ type: "specialTokensText", value: "<tool_call>" }, "x"],
        },
        { id: "c2", name: "Ls", arguments: {} },
      ],
    },
    { role: "tool", content: "file a", toolCallId: "c1", toolName: "Read" },
    { role: "tool", content: "no such dir", toolCallId: "c2", toolName: "Ls", isError: true },
    { role: "assistant", content: "Done." },
    { role: "user", content: "thanks" },
  ]);
  assert.deepEqual(items.slice(0, 2), [
    { type: "system", text: "Be brief." },
    { type: "user", text: "read a" },
  ]);
  const model = items[2];
  assert.equal(model.type, "model");
  assert.ok(model.type === "model");
  assert.deepEqual(model.response[0], {
    type: "segment",
    segmentType: "thought",
    text: "plan",
    ended: true,
  });
  assert.equal(model.response[1], "Reading.");
  assert.deepEqual(model.response[2], {
    type: "functionCall",
    name: "Read",
    params: { path: "a" },
    result: new ToolOutput("file a", false),
    startsNewChunk: true,
    rawCall: [{ type: "specialTokensText", value: "<tool_call>" }, "x"],
  });
  assert.deepEqual(model.response[3], {
    type: "functionCall",
    name: "Ls",
    params: {},
    result: new ToolOutput("no such dir", true),
    startsNewChunk: false,
  });
  assert.equal(model.response[4], "Done.");
  // The new question, then an empty model response to generate into.
  assert.deepEqual(items.slice(3), [
    { type: "user", text: "thanks" },
    { type: "model", response: [] },
  ]);
});

test("history: an unanswered call gets a result saying so; a turn continuing after results generates into the same response", () => {
  const items = toChatHistory("", [
    { role: "user", content: "go" },
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "Bash", arguments: {} }] },
  ]);
  assert.equal(items.length, 2);
  const model = items[1];
  assert.ok(model.type === "model");
  const call = model.response[0];
  assert.ok(typeof call === "object" && call.type === "functionCall");
  assert.ok(call.result instanceof ToolOutput && call.result.isError);
});

test("conversation key: the same conversation keeps its key as it grows", () => {
  const first = conversationKey("sys", [{ role: "user", content: "hello" }]);
  const later = conversationKey("sys", [
    { role: "user", content: "hello" },
    { role: "assistant", content: "hi" },
    { role: "user", content: "more" },
  ]);
  assert.equal(first, later);
  assert.notEqual(first, conversationKey("sys", [{ role: "user", content: "other" }]));
});
