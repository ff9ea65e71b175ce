/** The transcript reducer: engine events in, the chat's view model out (pure, no DOM). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  isRunning,
  lastPrompt,
  reduceTranscript,
  transcriptOf,
  type ChatEvent,
} from "./transcript.ts";
import { LIVE_KEEP } from "./tool-items.ts";
import { events, run, shape, stats } from "./transcript-testing.ts";

describe("transcript reducer", () => {
  it("streams thinking and text, then the step's final text replaces the deltas", () => {
    const live = run(
      { type: "prompt", text: "hi" },
      events({ type: "user_message", text: "hi" }),
      events(
        { type: "thinking_delta", text: "let me " },
        { type: "thinking_delta", text: "think" },
      ),
      events({ type: "assistant_delta", text: "# Hel" }, { type: "assistant_delta", text: "lo" }),
    );
    assert.equal(live.turns.length, 1, "the echo of a prompt shown locally is not a second turn");
    assert.deepEqual(shape(live)[0].items, [
      { kind: "thinking", text: "let me think", streaming: true },
      { kind: "assistant", text: "# Hello", streaming: true },
    ]);
    assert.equal(isRunning(live), true);
    const done = reduceTranscript(
      live,
      events(
        { type: "thinking", text: "let me think" },
        { type: "assistant", text: "# Hello!" },
        { type: "done", stats, sessionId: "s" },
      ),
    );
    assert.deepEqual(shape(done), [
      {
        prompt: "hi",
        status: "done",
        items: [
          { kind: "thinking", text: "let me think", streaming: false },
          { kind: "assistant", text: "# Hello!", streaming: false },
        ],
      },
    ]);
    assert.equal(isRunning(done), false);
  });

  it("a running hook's statusMessage shows until it ends, and never outlives the turn", () => {
    const status = (running: boolean): ChatEvent => ({
      type: "hook_status",
      source: "guard.yaml:PreToolUse",
      text: "Checking for secrets…",
      running,
    });
    const live = run(
      { type: "prompt", text: "save it" },
      events({ type: "user_message", text: "save it" }, status(true)),
    );
    assert.deepEqual(live.turns[0].hooksRunning, [
      { source: "guard.yaml:PreToolUse", text: "Checking for secrets…" },
    ]);
    assert.deepEqual(reduceTranscript(live, events(status(false))).turns[0].hooksRunning, []);
    // A turn that ends while a hook still runs (stopped) shows none running.
    const ended = reduceTranscript(live, events({ type: "done", stats, sessionId: "s" }));
    assert.deepEqual(ended.turns[0].hooksRunning, []);
  });

  it("a history renders exactly like the live turn that produced it", () => {
    const history: ChatEvent[] = [
      { type: "user_message", text: "list files" },
      { type: "hook_trace", entries: [hook("guard", "beforeChat", ["message"])] },
      { type: "notice", source: "guard", text: "careful" },
      { type: "tool_call", id: "c1", name: "Bash", arguments: { command: "ls" } },
      { type: "tool_result", id: "c1", name: "Bash", output: "a\nb", error: false, durationMs: 12 },
      { type: "assistant", text: "Two files." },
      { type: "done", stats, sessionId: "s" },
    ];
    const live = run({ type: "prompt", text: "list files" }, events(...history), {
      type: "ended",
      outcome: { status: "done", text: "Two files.", command: null, error: null },
    });
    assert.deepEqual(shape(transcriptOf(history)), shape(live));
    assert.deepEqual(shape(live)[0].items, [
      { kind: "notice", source: "guard", text: "careful" },
      {
        kind: "tool",
        callId: "c1",
        name: "Bash",
        arguments: { command: "ls" },
        state: "done",
        output: "a\nb",
        durationMs: 12,
        live: "",
        liveDropped: 0,
        agent: null,
        steps: [],
      },
      { kind: "assistant", text: "Two files.", streaming: false },
    ]);
    assert.deepEqual(live.turns[0].hooks, [hook("guard", "beforeChat", ["message"])]);
  });

  it("a running tool's live output grows in its card, capped, and gives way to the result", () => {
    const call: ChatEvent = {
      type: "tool_call",
      id: "c1",
      name: "Bash",
      arguments: { command: "make" },
    };
    const t = run(
      { type: "prompt", text: "build" },
      events(call, { type: "tool_output", id: "c1", text: "compiling a\n" }),
      events(
        { type: "tool_output", id: "other", text: "not this card\n" },
        { type: "tool_output", id: "c1", text: "compiling b\n", dropped: 5 },
      ),
    );
    const card = t.turns[0].items[0];
    assert.ok(card.kind === "tool");
    assert.equal(card.state, "running");
    assert.equal(card.live, "compiling a\ncompiling b\n");
    assert.equal(card.liveDropped, 5);

    // A chatty command keeps only the newest LIVE_KEEP characters; the rest is counted.
    const flood = reduceTranscript(
      t,
      events({ type: "tool_output", id: "c1", text: "x".repeat(LIVE_KEEP) }),
    ).turns[0].items[0];
    assert.ok(flood.kind === "tool");
    assert.equal(flood.live, "x".repeat(LIVE_KEEP));
    assert.equal(flood.liveDropped, 5 + "compiling a\ncompiling b\n".length);

    const done = reduceTranscript(
      t,
      events(
        { type: "tool_result", id: "c1", name: "Bash", output: "ok", error: false, durationMs: 9 },
        { type: "tool_output", id: "c1", text: "late\n" },
      ),
    ).turns[0].items[0];
    assert.ok(done.kind === "tool");
    assert.deepEqual([done.state, done.output, done.live, done.liveDropped], ["done", "ok", "", 0]);
  });

  it("a Task card lists its sub-agent's tool calls from subagent events, and no other card does", () => {
    const sub = (event: Record<string, unknown> & { type: string }): ChatEvent => ({
      type: "subagent",
      id: "t1",
      agent: "researcher",
      event,
    });
    const t = run(
      { type: "prompt", text: "research" },
      events(
        { type: "tool_call", id: "t1", name: "Task", arguments: { subagent_type: "researcher" } },
        { type: "tool_call", id: "b1", name: "Bash", arguments: { command: "ls" } },
        sub({ type: "tool_call", id: "r1", name: "Read", arguments: { path: "a.md" } }),
        sub({ type: "tool_call", id: "g1", name: "Grep", arguments: { pattern: "x" } }),
        sub({
          type: "tool_result",
          id: "r1",
          name: "Read",
          output: "a",
          error: false,
          durationMs: 1,
        }),
        sub({
          type: "tool_result",
          id: "g1",
          name: "Grep",
          output: "no",
          error: true,
          durationMs: 1,
        }),
        { type: "subagent", id: "elsewhere", agent: "x", event: { type: "tool_call", id: "z" } },
      ),
    );
    const [task, bash] = t.turns[0].items;
    assert.ok(task.kind === "tool" && bash.kind === "tool");
    assert.equal(task.agent, "researcher");
    assert.deepEqual(
      task.steps.map((st) => [st.name, st.arguments, st.state]),
      [
        ["Read", { path: "a.md" }, "done"],
        ["Grep", { pattern: "x" }, "error"],
      ],
    );
    assert.deepEqual(bash.steps, []);
  });

  it("a history taken mid-turn (another window's) keeps that turn running for its events", () => {
    const sofar: ChatEvent[] = [
      { type: "user_message", text: "first" },
      { type: "assistant", text: "one" },
      { type: "done", stats, sessionId: "s" },
      { type: "user_message", text: "second" },
      { type: "tool_call", id: "c1", name: "Bash", arguments: { command: "make" } },
      { type: "tool_output", id: "c1", text: "building\n" },
    ];
    const joined = run({ type: "history", events: sofar, running: true });
    assert.deepEqual(
      joined.turns.map((t) => t.status),
      ["done", "running"],
    );
    assert.equal(isRunning(joined), true);
    const card = joined.turns[1].items[0];
    assert.ok(card.kind === "tool" && card.state === "running" && card.live === "building\n");
    const ended = reduceTranscript(
      joined,
      events(
        {
          type: "tool_result",
          id: "c1",
          name: "Bash",
          output: "built",
          error: false,
          durationMs: 5,
        },
        { type: "done", stats, sessionId: "s" },
      ),
    );
    assert.equal(isRunning(ended), false);
    // Without `running` the same events are a saved history: nothing is left running.
    assert.equal(isRunning(run({ type: "history", events: sofar })), false);
  });

  it("a withdrawn attempt's text disappears; a retry is shown", () => {
    const t = run(
      { type: "prompt", text: "q" },
      events(
        { type: "assistant_delta", text: "partial" },
        { type: "assistant_withdrawn", text: "partial", reason: "network" },
        { type: "retry", attempt: 1, delayMs: 1000, reason: "network" },
        { type: "assistant_delta", text: "whole" },
      ),
    );
    assert.deepEqual(shape(t)[0].items, [
      { kind: "retry", attempt: 1, delayMs: 1000, reason: "network" },
      { kind: "assistant", text: "whole", streaming: true },
    ]);
  });

  it("a stopped turn stops streaming and marks a tool still running as stopped", () => {
    const t = run(
      { type: "prompt", text: "sleep" },
      events({ type: "tool_call", id: "c1", name: "Bash", arguments: { command: "sleep 30" } }),
      { type: "ended", outcome: { status: "stopped", text: "", command: null, error: null } },
    );
    assert.equal(t.turns[0].status, "stopped");
    assert.equal(t.turns[0].items[0].kind === "tool" && t.turns[0].items[0].state, "stopped");
  });

  it("a failed turn shows its error once, and Retry knows the prompt", () => {
    const t = run(
      { type: "prompt", text: "again?" },
      events({ type: "error", errorType: "network", message: "connection refused" }),
      {
        type: "ended",
        outcome: {
          status: "error",
          text: "",
          command: null,
          error: { source: "model", title: "connection refused" },
        },
      },
    );
    assert.deepEqual(shape(t)[0], {
      prompt: "again?",
      status: "error",
      items: [{ kind: "error", message: "connection refused", errorType: "network" }],
    });
    assert.equal(lastPrompt(t), "again?");
    const refused = run(
      { type: "prompt", text: "x" },
      { type: "ended", outcome: null, error: "no model" },
    );
    assert.deepEqual(shape(refused)[0].items, [
      { kind: "error", message: "no model", errorType: "" },
    ]);
  });

  it("the todo list follows successful TodoWrite calls; tokens feed the context meter", () => {
    const todos = [
      { content: "read", status: "completed" },
      { content: "write", status: "in_progress" },
    ];
    const t = run(
      { type: "prompt", text: "plan" },
      events(
        { type: "tool_call", id: "t1", name: "TodoWrite", arguments: { todos } },
        {
          type: "tool_result",
          id: "t1",
          name: "TodoWrite",
          output: "ok",
          error: false,
          durationMs: 1,
        },
        { type: "tool_call", id: "t2", name: "TodoWrite", arguments: { todos: [] } },
        {
          type: "tool_result",
          id: "t2",
          name: "TodoWrite",
          output: "bad",
          error: true,
          durationMs: 1,
        },
        { type: "tokens", tokens: { estimate: 1200, lastApi: 1000, percent: 12, max: 8192 } },
      ),
    );
    assert.deepEqual(t.todos, todos);
    assert.equal(t.tokens?.max, 8192);
  });
});

function hook(source: string, timing: "beforeChat", changed: string[]) {
  return { source, timing, status: "ok" as const, durationMs: 2, changed };
}
