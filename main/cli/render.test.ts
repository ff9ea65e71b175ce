/** How `islet run` shows a withdrawn partial answer, as text and as JSON lines. */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { AgentEvent } from "../turn/events.ts";
import type { EventSink } from "../core/events.ts";
import { jsonRenderer, textRenderer, type Output } from "./render.ts";

function capture(): Output & { stdout: string; stderr: string } {
  const o = {
    stdout: "",
    stderr: "",
    out: (t: string) => void (o.stdout += t),
    err: (t: string) => void (o.stderr += t),
  };
  return o;
}

const attempt: AgentEvent[] = [
  { type: "assistant_delta", text: "Hello, wor" },
  { type: "assistant_withdrawn", text: "Hello, wor", reason: "local: the answer stalled" },
  { type: "notice", source: "engine", text: "local: the answer stalled; retrying in 1.0 s" },
  { type: "assistant_delta", text: "Hello, world!" },
  { type: "assistant", text: "Hello, world!" },
];

test("text: a withdrawn partial is ended and marked on stderr; the retry starts on its own line", () => {
  const io = capture();
  const render = textRenderer(io, { color: false });
  for (const e of attempt) render(e);
  assert.equal(io.stdout, "Hello, wor\nHello, world!\n");
  assert.match(io.stderr, /^\[answer withdrawn: the partial answer above is discarded\]\n/);
  assert.doesNotMatch(io.stderr, /Hello/, "the withdrawn text is not printed again");
});

test("json: assistant_withdrawn is a public event with the withdrawn text and the reason", () => {
  const io = capture();
  const render = jsonRenderer(io);
  for (const e of attempt) render(e);
  const events = io.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as AgentEvent);
  assert.deepEqual(events[1], attempt[1]);
});
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

test("text: a call nobody approved is a plain activity line, not a red failure", () => {
  const io = capture();
  const render = textRenderer(io, { color: true });
  const red = "\u001b[31m";
  const result = {
    type: "tool_result",
    id: "c1",
    name: "Write",
    error: true,
    durationMs: 0,
  } as const;
  render({ ...result, output: "Not run: Write needs…", denied: "no_one" });
  render({ ...result, output: "Not run: the user declined…", denied: "user" });
  render({ ...result, output: "EACCES: permission denied" });
  const [nobody, declined, failed] = io.stderr.trimEnd().split("\n");
  assert.match(nobody, /– Write not run: no one to ask \(no terminal; --yes approves tool calls\)/);
  assert.doesNotMatch(nobody, /user|✗/);
  assert.ok(!nobody.includes(red));
  assert.match(declined, /– Write denied by you/);
  assert.doesNotMatch(declined, /✗/);
  assert.ok(!declined.includes(red));
  assert.match(failed, /✗.*Write 0 ms.*EACCES/, "a real failure is still marked");
});
