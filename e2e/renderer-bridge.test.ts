/**
 * The renderer's own WebSocket client (renderer/src/bridge/websocket.ts, what the page runs in a
 * browser) against a real `islet serve` server and engine, two pages at once: typed calls,
 * streams with an AbortSignal, events addressed to each page, questions answered and withdrawn,
 * and failures as problems.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { WebSocket as NodeWebSocket } from "ws";
import {
  BridgeError,
  CallCancelled,
  type AgentEvent,
  type QuestionAsked,
} from "../main/bridge/contract.ts";
import { openBridgeHost, type BridgeHost } from "../main/bridge/host.ts";
import { tempDir, type TempDir } from "../main/code-plugins/loader/testing.ts";
import { startFakeOpenAI, type FakeServer } from "../main/providers/testing/index.ts";
import { startServer, type RunningServer } from "../main/serve/server.ts";
import { websocketBridge, type WebSocketBridge } from "../renderer/src/bridge/websocket.ts";
import { serveOnly } from "./support/target.ts";

const writeCall = (file: string) => ({
  toolCalls: [{ name: "Write", arguments: { path: file, content: "x\n" } }],
});

const skip = serveOnly("tests islet serve's WebSocket bridge itself", { browser: false });

describe("the renderer's WebSocket bridge against islet serve", { skip }, () => {
  let dirs: TempDir;
  let model: FakeServer;
  let host: BridgeHost;
  let server: RunningServer;
  let pageA: WebSocketBridge;
  let pageB: WebSocketBridge;

  before(async () => {
    dirs = tempDir("islet-renderer-bridge-");
    dirs.write({ "work/.keep": "", "ui/index.html": "<!doctype html><title>Islet</title>" });
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
    server = await startServer({ service: host.service, port: 0, rendererDir: dirs.path("ui") });
    // A browser sends its page's Origin with the upgrade; Node's WebSocket does not, so the
    // page's sockets are `ws` sockets that do (the renderer code is unchanged).
    const origin = new URL(server.url).origin;
    globalThis.WebSocket = class extends NodeWebSocket {
      constructor(url: string) {
        super(url, { origin });
      }
    } as unknown as typeof WebSocket;
    const location = new URL(server.url) as unknown as Location;
    pageA = websocketBridge(location);
    pageB = websocketBridge(location);
  });

  after(async () => {
    pageA.close();
    pageB.close();
    await server.close();
    await host.close();
    await model.close();
    dirs.remove();
  });

  it("answers typed calls and streams a turn to the page that sent it", async () => {
    const info = await pageA.call("app/info");
    assert.equal(info.host, "browser");
    const { conversationId } = await pageA.call("chat/open", {});
    model.push({ text: ["Hi ", "there"] });
    const events: AgentEvent[] = [];
    const outcome = await pageA.stream(
      "chat/send",
      { conversationId, text: "hello" },
      { onChunk: (event) => events.push(event) },
    );
    assert.equal(outcome.text, "Hi there");
    assert.deepEqual(
      events
        .filter((e) => e.type === "assistant_delta")
        .map((e) => e.type === "assistant_delta" && e.text),
      ["Hi ", "there"],
    );
  });

  it("asks only the page whose conversation it is; that page answers", async () => {
    const a = await pageA.call("chat/open", {});
    await pageB.call("chat/open", {});
    const heardByB: QuestionAsked[] = [];
    const offB = pageB.on("question/asked", (q) => heardByB.push(q));
    const offA = pageA.on("question/asked", ({ id, question }) => {
      if (question.kind === "approval")
        void pageA.call("question/answer", { id, kind: "approval", answer: "allow" });
    });
    model.push(writeCall("page-a.txt"), { text: ["done"] });
    try {
      const outcome = await pageA.stream(
        "chat/send",
        { conversationId: a.conversationId, text: "write" },
        { onChunk: () => {} },
      );
      assert.equal(outcome.status, "done");
    } finally {
      offA();
      offB();
    }
    assert.ok(existsSync(dirs.path("work", "page-a.txt")));
    assert.deepEqual(heardByB, []);
  });

  it("tells the page a question was withdrawn when its turn is stopped", async () => {
    const { conversationId } = await pageA.call("chat/open", {});
    model.push(writeCall("stopped.txt"));
    const withdrawn: unknown[] = [];
    const offW = pageA.on("question/withdrawn", (w) => withdrawn.push(w));
    const asked = new Promise<QuestionAsked>((resolve) => {
      const off = pageA.on("question/asked", (q) => {
        off();
        resolve(q);
      });
    });
    const turn = pageA.stream(
      "chat/send",
      { conversationId, text: "write" },
      { onChunk: () => {} },
    );
    const { id } = await asked;
    assert.deepEqual(await pageA.call("chat/stop", { conversationId }), { stopped: true });
    assert.equal((await turn).status, "stopped");
    for (let i = 0; i < 100 && withdrawn.length === 0; i++) await sleep(10);
    offW();
    assert.deepEqual(withdrawn, [{ id, reason: "stopped" }]);
    assert.ok(!existsSync(dirs.path("work", "stopped.txt")));
  });

  it("an aborted signal cancels the stream: the promise rejects with an AbortError", async () => {
    const { conversationId } = await pageA.call("chat/open", {});
    model.push({ text: ["slow"], hang: true }, { text: ["fine"] });
    const cancel = new AbortController();
    await assert.rejects(
      pageA.stream(
        "chat/send",
        { conversationId, text: "go" },
        {
          // Once the model is streaming (the prompt's own user_message event comes first).
          onChunk: (e) => {
            if (e.type === "assistant_delta") cancel.abort();
          },
          signal: cancel.signal,
        },
      ),
      (err) => err instanceof CallCancelled && err.name === "AbortError",
    );
    const again = await pageA.stream(
      "chat/send",
      { conversationId, text: "again" },
      { onChunk: () => {} },
    );
    assert.equal(again.text, "fine");
  });

  it("a refused call throws a BridgeError carrying its problem", async () => {
    const error = await pageB
      .call("question/answer", { id: "q-gone", kind: "approval", answer: "deny" })
      .catch((e: unknown) => e);
    assert.ok(error instanceof BridgeError);
    assert.deepEqual(error.problem, {
      source: "question/answer",
      title: "question q-gone is not open",
      cause: "it was answered, withdrawn, or never asked",
    });
  });
});
