import assert from "node:assert/strict";
import { test } from "node:test";
import { AgentEvent, PUBLIC_EVENT_TYPES } from "./events.ts";

test("the public events are exactly the ones `run --json` documents (SPEC §10, and the withdrawal of a failed attempt)", () => {
  assert.deepEqual([...PUBLIC_EVENT_TYPES].sort(), [
    "agent_switch",
    "assistant",
    "assistant_delta",
    "assistant_withdrawn",
    "compaction",
    "done",
    "error",
    "injected",
    "notice",
    "thinking",
    "tool_call",
    "tool_result",
  ]);
});

test("the schemas refuse unknown types, unknown fields and wrong field types", () => {
  assert.ok(AgentEvent.safeParse({ type: "assistant_delta", text: "hi" }).success);
  assert.ok(!AgentEvent.safeParse({ type: "shell", command: "rm" }).success);
  assert.ok(!AgentEvent.safeParse({ type: "assistant_delta", text: "hi", extra: 1 }).success);
  assert.ok(!AgentEvent.safeParse({ type: "error", errorType: "oops", message: "m" }).success);
  const trace = { source: "p", timing: "beforeChat", status: "ok", durationMs: 1, changed: [] };
  assert.ok(AgentEvent.safeParse({ type: "hook_trace", entries: [trace] }).success);
  assert.ok(
    !AgentEvent.safeParse({ type: "hook_trace", entries: [{ ...trace, timing: "whenever" }] })
      .success,
  );
});
