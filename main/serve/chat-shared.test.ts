/**
 * One conversation in two tabs over `islet serve`'s real WebSocket: the second tab sees the
 * first one's turn live (`chat/event`), the sender gets its events once (as chunks), a tab that
 * did not open the conversation sees none of it, a tab joining mid-turn gets the turn so far and
 * then follows it, and an agent switch from the picker reaches every tab and is saved.
 */
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { openBridgeHost, type BridgeHost } from "../bridge/host.ts";
import type { AgentEvent } from "../core/events.ts";
import { tempDir, type TempDir } from "../code-plugins/loader/testing.ts";
import { startFakeOpenAI, type FakeServer } from "../providers/testing/index.ts";
import { startServer, type RunningServer } from "./server.ts";
import { connectSocket, type SocketClient } from "./testing.ts";

const TOKEN = "chat-shared-token";

type Frame = Record<string, unknown>;
type ChatEventFrame = { conversationId: string; seq: number; event: AgentEvent };
const result = (frame: Frame) => frame.result as Record<string, unknown>;
const payload = (frame: Frame) => frame.payload as Record<string, unknown>;
/** The `chat/event`s a tab received for one conversation, in order. */
const chatEvents = (c: SocketClient, conversationId: string): ChatEventFrame[] =>
  c.events
    .filter((f) => f.event === "chat/event")
    .map((f) => f.payload as ChatEventFrame)
    .filter((p) => p.conversationId === conversationId);

describe("islet serve: a conversation's events reach all its tabs", () => {
  let dirs: TempDir;
  let model: FakeServer;
  let host: BridgeHost;
  let server: RunningServer;
  const open: SocketClient[] = [];

  before(async () => {
    dirs = tempDir("islet-serve-shared-");
    dirs.write({
      "work/.keep": "",
      "home/config/agents/reviewer.md": "---\ndescription: Reviews\n---\nYou review.",
    });
    const ui = dirs.write({ "ui/index.html": "<!doctype html><title>Islet</title>" });
    model = await startFakeOpenAI([]);
    host = await openBridgeHost({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      env: {},
      flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
      host: {
        host: "browser",
        versions: { node: process.versions.node, electron: null, chrome: null },
      },
    });
    server = await startServer({
      service: host.service,
      port: 0,
      rendererDir: `${ui}/ui`,
      token: TOKEN,
    });
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
    assert.equal(model.remaining, 0, "every scripted answer was asked for");
  });

  after(async () => {
    await server.close();
    await host.close();
    await model.close();
    dirs.remove();
  });

  async function client(): Promise<SocketClient> {
    const c = await connectSocket(server.port, { token: TOKEN });
    open.push(c);
    return c;
  }

  async function openChat(c: SocketClient, sessionId?: string): Promise<string> {
    const reply = await c.call("chat/open", sessionId ? { sessionId } : {});
    assert.equal(reply.ok, true, JSON.stringify(reply));
    return result(reply).conversationId as string;
  }

  it("tab B sees tab A's turn live, A gets each event once, tab C sees nothing", async () => {
    const [a, b, c] = [await client(), await client(), await client()];
    const id = await openChat(a);
    assert.equal(await openChat(b, id), id);
    await openChat(c);

    model.push({ thinking: ["hm"], text: ["Hello ", "from ", "A."], pauseMs: 20 });
    const turn = a.stream("chat/send", { conversationId: id, text: "hi from A" });
    assert.equal(result(await turn.end).status, "done");
    await sleep(50); // anything misaddressed would have arrived by now

    const seen = chatEvents(b, id);
    assert.deepEqual(
      seen.map((p) => p.event),
      turn.chunks,
      "B saw every event A streamed, in order",
    );
    assert.deepEqual(seen[0].event, { type: "user_message", text: "hi from A" });
    assert.ok(
      seen.some((p) => p.event.type === "assistant_delta"),
      "B saw it stream",
    );
    assert.deepEqual(
      seen.map((p) => p.seq),
      seen.map((_, i) => seen[0].seq + i),
      "numbered without gaps",
    );
    assert.deepEqual(chatEvents(a, id), [], "A had the events as chunks, not twice");
    assert.equal(
      c.events.filter((f) => f.event === "chat/event").length,
      0,
      "C, on another conversation, saw none of it",
    );
  });

  it("a tab joining mid-turn gets the turn so far, running, then follows it to the end", async () => {
    const a = await client();
    const id = await openChat(a);
    model.push(
      {
        toolCalls: [{ name: "Bash", arguments: { command: "echo first; sleep 2; echo second" } }],
      },
      { text: ["Ran it."] },
    );
    const turn = a.stream("chat/send", { conversationId: id, text: "run it" });
    const asked = payload(await a.event("question/asked"));
    await a.call("question/answer", { id: asked.id, kind: "approval", answer: "allow" });
    // The command printed its first line and is sleeping: B opens the conversation now.
    const printed = () =>
      (turn.chunks as AgentEvent[]).some((e) => e.type === "tool_output" && /first/.test(e.text));
    while (!printed()) await sleep(20);
    const b = await client();
    await openChat(b, id);
    const reply = await b.call("chat/history", { conversationId: id });
    assert.equal(reply.ok, true, JSON.stringify(reply));
    const history = result(reply) as { events: AgentEvent[]; running: boolean; seq: number };
    assert.equal(history.running, true);
    const types: string[] = history.events.map((e) => e.type);
    for (const type of ["user_message", "tool_call", "tool_output"])
      assert.ok(types.includes(type), `the history so far has a ${type}: ${types.join(", ")}`);
    assert.ok(!types.includes("tool_result") && !types.includes("done"), "not yet ended");

    assert.equal(result(await turn.end).status, "done");
    await sleep(50);
    const after = chatEvents(b, id).filter((p) => p.seq > history.seq);
    assert.deepEqual(
      after.map((p) => p.seq),
      after.map((_, i) => history.seq + 1 + i),
      "B missed nothing after the history",
    );
    const rest = after.map((p) => p.event);
    const result_ = rest.find((e) => e.type === "tool_result");
    assert.ok(result_?.type === "tool_result" && /first\nsecond/.test(result_.output));
    assert.ok(rest.some((e) => e.type === "assistant" && e.text === "Ran it."));
    assert.equal(rest.at(-1)?.type, "done");
    // Once it ended, the history is the saved one: no streaming pieces.
    const ended = result(await b.call("chat/history", { conversationId: id })) as {
      events: AgentEvent[];
      running: boolean;
    };
    assert.equal(ended.running, false);
    assert.ok(!ended.events.some((e) => e.type === "tool_output"));
    assert.ok(ended.events.some((e) => e.type === "tool_result"));
  });

  it("an agent switch from the picker reaches every tab of the conversation and is saved", async () => {
    const [a, b, c] = [await client(), await client(), await client()];
    const id = await openChat(a);
    await openChat(b, id);
    await openChat(c);
    const reply = await a.call("agents/select", { conversationId: id, agent: "reviewer" });
    assert.equal(reply.ok, true, JSON.stringify(reply));
    await sleep(50);
    const switched = { type: "agent_switch", from: "default", to: "reviewer", reason: "user" };
    for (const tab of [a, b])
      assert.deepEqual(
        chatEvents(tab, id).map((p) => p.event),
        [switched],
      );
    assert.equal(c.events.filter((f) => f.event === "chat/event").length, 0);
    // Saved: the session file's history has it (a window opening it after a restart shows it).
    assert.ok((await host.engine.history(id)).some((e) => e.type === "agent_switch"));
  });
});
