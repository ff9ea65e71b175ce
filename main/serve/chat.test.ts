/**
 * Chat over `islet serve`'s real WebSocket with two browser-like clients: events and questions
 * reach only the conversation's own sockets, answers decide tool calls, and a stopped turn, a
 * cancelled stream or a closed socket withdraws what was asked.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, afterEach, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { openBridgeHost, type BridgeHost } from "../bridge/host.ts";
import { tempDir, type TempDir } from "../code-plugins/loader/testing.ts";
import { startFakeOpenAI, type FakeServer } from "../providers/testing/index.ts";
import type { ScriptedResponse } from "../providers/testing/script.ts";
import { startServer, type RunningServer } from "./server.ts";
import { connectSocket, type SocketClient } from "./testing.ts";

const TOKEN = "chat-test-token";

const writeCall = (file: string): ScriptedResponse => ({
  toolCalls: [{ name: "Write", arguments: { path: file, content: "x\n" } }],
});

type Frame = Record<string, unknown>;
const result = (frame: Frame) => frame.result as Record<string, unknown>;
const payload = (frame: Frame) => frame.payload as Record<string, unknown>;

describe("islet serve: chat, questions and addressing over WebSocket", () => {
  let dirs: TempDir;
  let model: FakeServer;
  let host: BridgeHost;
  let server: RunningServer;
  const open: SocketClient[] = [];

  before(async () => {
    dirs = tempDir("islet-serve-chat-");
    dirs.write({ "work/.keep": "" });
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

  const send = (c: SocketClient, conversationId: string, text: string) =>
    c.stream("chat/send", { conversationId, text });

  it("two tabs on two conversations: each hears only its own questions", async () => {
    const [a, b] = [await client(), await client()];
    const [convA, convB] = [await openChat(a), await openChat(b)];
    assert.notEqual(convA, convB);

    model.push(writeCall("from-a.txt"), { text: ["A done"] });
    const turnA = send(a, convA, "write from-a.txt");
    const askedA = payload(await a.event("question/asked"));
    assert.equal(askedA.conversationId, convA);
    const refused = await b.call("question/answer", {
      id: askedA.id,
      kind: "approval",
      answer: "allow",
    });
    assert.equal(refused.ok, false);
    assert.match(String((refused.problem as { title: string }).title), /not asked of this window/);
    await a.call("question/answer", { id: askedA.id, kind: "approval", answer: "allow" });
    assert.deepEqual(result(await turnA.end).status, "done");
    assert.ok(existsSync(dirs.path("work", "from-a.txt")));
    assert.ok(turnA.chunks.some((e) => (e as { type: string }).type === "tool_result"));

    model.push(writeCall("from-b.txt"), { text: ["B done"] });
    const turnB = send(b, convB, "write from-b.txt");
    const askedB = payload(await b.event("question/asked"));
    await b.call("question/answer", { id: askedB.id, kind: "approval", answer: "deny" });
    assert.equal(result(await turnB.end).text, "B done");
    assert.ok(!existsSync(dirs.path("work", "from-b.txt")));

    await sleep(50); // anything misaddressed would have arrived by now
    // `sessions/changed` goes to every tab by design (their sessions lists refresh): it carries
    // a session id only, nothing of the conversation.
    const own = (c: typeof a) =>
      c.events.filter((e) => e.event !== "sessions/changed").map((e) => [e.event, payload(e).id]);
    assert.deepEqual(own(a), [["question/asked", askedA.id]]);
    assert.deepEqual(own(b), [["question/asked", askedB.id]]);
  });

  it("chat/stop withdraws the question; the stream ends with status stopped", async () => {
    const a = await client();
    const conv = await openChat(a);
    model.push(writeCall("stopped.txt"));
    const turn = send(a, conv, "write stopped.txt");
    const asked = payload(await a.event("question/asked"));
    assert.deepEqual(result(await a.call("chat/stop", { conversationId: conv })), {
      stopped: true,
    });
    assert.deepEqual(payload(await a.event("question/withdrawn")), {
      id: asked.id,
      reason: "stopped",
    });
    assert.equal(result(await turn.end).status, "stopped");
    assert.ok(!existsSync(dirs.path("work", "stopped.txt")));
  });

  it("a tab that closes cancels its turn: the question is withdrawn from the other tab", async () => {
    const [sender, watcher] = [await client(), await client()];
    const conv = await openChat(sender);
    assert.equal(await openChat(watcher, conv), conv, "the second tab joins the same conversation");
    model.push(writeCall("orphan.txt"));
    send(sender, conv, "write orphan.txt");
    const asked = payload(await watcher.event("question/asked"));
    assert.equal(payload(await sender.event("question/asked")).id, asked.id);
    await sender.close();
    assert.deepEqual(payload(await watcher.event("question/withdrawn")), {
      id: asked.id,
      reason: "stopped",
    });
    assert.ok(!existsSync(dirs.path("work", "orphan.txt")));
    // The turn is over: the remaining tab can talk in the conversation.
    model.push({ text: ["still here"] });
    assert.equal(result(await send(watcher, conv, "hello?").end).text, "still here");
  });

  it("cancelling the stream stops the turn mid-answer; the next prompt runs", async () => {
    const a = await client();
    const conv = await openChat(a);
    model.push({ text: ["Let me think"], hang: true }, { text: ["Next answer"] });
    const turn = send(a, conv, "long");
    while (turn.chunks.length === 0) await sleep(10);
    a.cancel(turn.id);
    assert.deepEqual(await turn.end, { id: turn.id, ok: false, cancelled: true });
    assert.equal(result(await send(a, conv, "again").end).text, "Next answer");
  });

  it("a stream frame for a plain call, and a call the socket did not open, are refused", async () => {
    const a = await client();
    const wrong = await a.stream("plugins/list", undefined).end;
    assert.match(String((wrong.problem as { title: string }).title), /it is a plain call/);
    const stranger = await a.stream("chat/send", { conversationId: "nope", text: "hi" }).end;
    assert.match(
      String((stranger.problem as { title: string }).title),
      /is not open in this window/,
    );
  });
});
