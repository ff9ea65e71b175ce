import { test } from "node:test";
import assert from "node:assert/strict";
import { ThinkTagSplitter } from "./think-tags.ts";
import { joined } from "./testing/collect.ts";
import type { StreamEvent } from "./types.ts";

function split(pieces: string[]): StreamEvent[] {
  const s = new ThinkTagSplitter();
  const out: StreamEvent[] = [];
  for (const p of pieces) s.push(p, out);
  s.end(out);
  return joined(out);
}

function everySplit(text: string): string[][] {
  const out: string[][] = [[text], Array.from(text)];
  for (let i = 1; i < text.length; i++) out.push([text.slice(0, i), text.slice(i)]);
  return out;
}

test("think tags: a leading block becomes thinking, however it is split", () => {
  for (const pieces of everySplit("\n<think>\nplan: a < b </thi\n</think>\n\nThe answer.")) {
    assert.deepEqual(split(pieces), [
      { type: "thinking", text: "\nplan: a < b </thi\n" },
      { type: "text", text: "The answer." },
    ]);
  }
});

test("think tags: text without a leading block is untouched", () => {
  for (const pieces of everySplit("Use <think> tags like <think>x</think>.")) {
    assert.deepEqual(split(pieces), [
      { type: "text", text: "Use <think> tags like <think>x</think>." },
    ]);
  }
  assert.deepEqual(split(["<thi"]), [{ type: "text", text: "<thi" }]);
  assert.deepEqual(split(["<think>unfinished"]), [{ type: "thinking", text: "unfinished" }]);
});
