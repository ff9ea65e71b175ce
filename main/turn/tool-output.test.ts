/** The live output coalescer: few events for a flood, nothing lost silently, nothing after close. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { AgentEvent } from "./events.ts";
import { liveOutput } from "./tool-output.ts";

type Out = Extract<AgentEvent, { type: "tool_output" }>;

test("a flood of output becomes a few capped events that count what they left out", async () => {
  const events: Out[] = [];
  const live = liveOutput("c1", (e) => events.push(e as Out), { intervalMs: 50, maxChars: 100 });
  const line = "0123456789\n"; // 11 chars
  for (let i = 0; i < 10_000; i++) live.push(line);
  await sleep(150);
  live.push("last\n");
  live.close();
  live.push("after close\n");
  await sleep(100);
  // The first piece went out at once, the rest of the flood in one event or a few (a slow
  // machine may pass an interval mid-loop), never one per piece.
  assert.ok(events.length <= 6, `${events.length} events`);
  assert.equal(events[0].text, line);
  for (const e of events) assert.ok(e.text.length <= 100);
  const sent = events.reduce((n, e) => n + e.text.length + (e.dropped ?? 0), 0);
  assert.equal(sent, 10_000 * line.length + "last\n".length);
  assert.ok(events.at(-1)?.text.endsWith("last\n"));
  assert.ok(!events.some((e) => e.text.includes("after close")));
});

test("pieces that come slowly go out one by one, each with the call's id", async () => {
  const events: Out[] = [];
  const live = liveOutput("c2", (e) => events.push(e as Out), { intervalMs: 20 });
  live.push("a\n");
  await sleep(60);
  live.push("b\n");
  await sleep(60);
  live.close();
  assert.deepEqual(events, [
    { type: "tool_output", id: "c2", text: "a\n" },
    { type: "tool_output", id: "c2", text: "b\n" },
  ]);
});
