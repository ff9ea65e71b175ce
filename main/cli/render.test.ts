import assert from "node:assert/strict";
import { test } from "node:test";
import type { EventSink } from "../conversation/events.ts";
import { jsonRenderer } from "./render.ts";

test("run --json prints public events that match their schema, and nothing else", () => {
  const out: string[] = [];
  const err: string[] = [];
  const emit: EventSink = jsonRenderer({ out: (t) => out.push(t), err: (t) => err.push(t) });
  emit({ type: "assistant_delta", text: "Hel" });
  emit({ type: "thinking_delta", text: "hidden" });
  emit({ type: "tool_call", id: "c1", name: "Read", arguments: { path: "a" } });
  emit({ type: "notice", source: "p", text: 3 } as never);
  assert.deepEqual(out, [
    '{"type":"assistant_delta","text":"Hel"}\n',
    '{"type":"tool_call","id":"c1","name":"Read","arguments":{"path":"a"}}\n',
  ]);
  assert.deepEqual(err, [
    "internal error: a notice event does not match its schema; not printed\n",
  ]);
});
