/**
 * `chat/history` on a real engine, real plugin sandboxes and a loopback fake model: what a turn
 * streamed comes back whole (minus the streaming pieces) from the same host and, after the host
 * is closed, from a new one on the same home; old sessions get a history from their messages.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, afterEach, before, describe, it } from "node:test";
import type { AgentEvent } from "../../core/events.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOpenAI, type FakeServer } from "../../providers/testing/index.ts";
import { SessionStore } from "../../sessions/store.ts";
import type { ChatOpened, ChatOutcome } from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

const STREAMING_ONLY = new Set(["assistant_delta", "thinking_delta", "tokens", "retry"]);

describe("bridge: chat/history", () => {
  let dirs: TempDir;
  let model: FakeServer;
  let host: BridgeHost;
  const clients: RecordingClient[] = [];

  const open = () =>
    openBridgeHost({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      env: {},
      plugins: {},
      flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
      host: {
        host: "browser",
        versions: { node: process.versions.node, electron: null, chrome: null },
      },
    });

  const client = (): RecordingClient => {
    const c = recordingClient(host.service);
    clients.push(c);
    return c;
  };

  before(async () => {
    dirs = tempDir("islet-bridge-history-");
    dirs.write({
      "work/notes.txt": "the notes\n",
      "home/plugins/noter/plugin.yaml": 'description: "Says something before each call"\n',
      "home/plugins/noter/index.ts":
        'export function beforeChat() { return { notice: "noter looked at the request" }; }\n',
      "home/plugins/checker/plugin.yaml": 'description: "Reminds after each tool"\n',
      "home/plugins/checker/index.ts":
        'export function afterToolExecution() { return { message: "check the tool output", role: "user" }; }\n',
    });
    model = await startFakeOpenAI([]);
    host = await open();
  });

  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
    assert.equal(model.remaining, 0, "every scripted answer was asked for");
  });

  after(async () => {
    await host.close();
    await model.close();
    dirs.remove();
  });

  it("returns what the turn streamed, on the same host and after a restart", async () => {
    model.push(
      {
        thinking: ["Let me ", "read it."],
        text: ["Reading ", "the notes."],
        toolCalls: [{ name: "Read", arguments: { path: "notes.txt" } }],
      },
      { text: ["The notes ", "say hello."] },
    );
    const owner = client();
    const opened = (await owner.call("chat/open", {})) as ChatOpened;
    const id = opened.conversationId;
    const streamed: AgentEvent[] = [];
    const outcome = (await owner.stream(
      "chat/send",
      { conversationId: id, text: "read notes.txt" },
      (e) => streamed.push(e as AgentEvent),
    )) as ChatOutcome;
    assert.equal(outcome.status, "done");
    const expected = streamed.filter((e) => !STREAMING_ONLY.has(e.type));
    // The turn did each thing the history must keep.
    for (const type of [
      "user_message",
      "thinking",
      "assistant",
      "tool_call",
      "tool_result",
      "notice",
      "injected",
      "hook_trace",
      "done",
    ])
      assert.ok(
        expected.some((e) => e.type === type),
        `the turn streamed a ${type} event`,
      );
    assert.deepEqual(expected[0], { type: "user_message", text: "read notes.txt" });

    const live = (await owner.call("chat/history", { conversationId: id })) as {
      events: AgentEvent[];
    };
    assert.deepEqual(live.events, expected);
    // Compact: a text the session's messages hold is not written a second time for the history.
    const file = readFileSync(host.engine.store.fileOf(id), "utf8");
    const toolOutput = expected.find((e) => e.type === "tool_result");
    assert.ok(toolOutput?.type === "tool_result");
    const texts = [
      "read notes.txt",
      "Let me read it.",
      "Reading the notes.",
      "The notes say hello.",
    ];
    for (const text of [...texts, toolOutput.output])
      assert.equal(file.split(JSON.stringify(text).slice(1, -1)).length - 1, 1, text);

    owner.close();
    await host.close();
    host = await open();
    const again = client();
    const reopened = (await again.call("chat/open", { sessionId: id })) as ChatOpened;
    assert.equal(reopened.resumed, true);
    const saved = (await again.call("chat/history", { conversationId: id })) as {
      events: AgentEvent[];
    };
    assert.deepEqual(saved.events, expected);
  });

  it("refuses a client that did not open the conversation", async () => {
    const owner = client();
    const { conversationId } = (await owner.call("chat/open", {})) as ChatOpened;
    const stranger = client();
    await assert.rejects(
      stranger.call("chat/history", { conversationId }),
      /chat\/history: conversation .* is not open in this window; open it with chat\/open first/,
    );
  });

  it("gives a session saved before events were its history from its messages", async () => {
    const store = SessionStore.forHome(dirs.path("home"));
    const id = await store.create({
      workdir: dirs.path("work"),
      agent: "default",
      provider: "openai-compatible",
      model: "m",
    });
    const at = "2026-11-20T10:00:00.000Z";
    const base = { kind: "normal" as const, createdAt: at };
    store.append(id, [
      { t: "message", message: { ...base, id: "m1", role: "user", content: "what is in a.txt?" } },
      {
        t: "message",
        message: {
          ...base,
          id: "m2",
          role: "assistant",
          content: "Let me look.",
          thinking: "read it",
          toolCalls: [{ id: "c1", name: "Read", arguments: { path: "a.txt" } }],
        },
      },
      {
        t: "message",
        message: {
          ...base,
          id: "m3",
          role: "tool",
          content: "hello",
          toolCallId: "c1",
          toolName: "Read",
        },
      },
      {
        t: "message",
        message: {
          ...base,
          id: "m4",
          role: "user",
          content: "be brief",
          kind: "synthetic",
          source: "brevity",
        },
      },
      {
        t: "message",
        message: { ...base, id: "m5", role: "assistant", content: "It says hello." },
      },
    ]);
    await store.close();

    const owner = client();
    await owner.call("chat/open", { sessionId: id });
    const { events } = (await owner.call("chat/history", { conversationId: id })) as {
      events: AgentEvent[];
    };
    assert.deepEqual(events, [
      { type: "user_message", text: "what is in a.txt?" },
      { type: "thinking", text: "read it" },
      { type: "assistant", text: "Let me look." },
      { type: "tool_call", id: "c1", name: "Read", arguments: { path: "a.txt" } },
      { type: "tool_result", id: "c1", name: "Read", output: "hello", error: false, durationMs: 0 },
      { type: "injected", source: "brevity", role: "user", text: "be brief" },
      { type: "assistant", text: "It says hello." },
    ]);

    // A new turn in the old session: its history is the old part, then the saved events.
    model.push({ text: ["Still hello."] });
    await owner.stream("chat/send", { conversationId: id, text: "and now?" }, () => {});
    const next = (await owner.call("chat/history", { conversationId: id })) as {
      events: AgentEvent[];
    };
    assert.deepEqual(next.events.slice(0, events.length), events);
    assert.deepEqual(next.events[events.length], { type: "user_message", text: "and now?" });
    assert.ok(next.events.some((e) => e.type === "assistant" && e.text === "Still hello."));
  });
});
