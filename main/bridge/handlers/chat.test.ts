/**
 * `chat/*` on a real engine against a loopback fake model: the model calls Write, the bridge asks
 * the conversation's window, and the answer decides whether the file is written.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, afterEach, before, describe, it } from "node:test";
import type { AgentEvent } from "../../core/events.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOpenAI, type FakeServer } from "../../providers/testing/index.ts";
import type { ScriptedResponse } from "../../providers/testing/script.ts";
import {
  CallCancelled,
  type ChatOpened,
  type ChatOutcome,
  type QuestionAsked,
} from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

const writeCall = (file: string): ScriptedResponse => ({
  toolCalls: [{ name: "Write", arguments: { path: file, content: "written by the model\n" } }],
});

describe("bridge: chat on a real engine", () => {
  let dirs: TempDir;
  let model: FakeServer;
  let host: BridgeHost;
  let owner: RecordingClient;

  before(async () => {
    dirs = tempDir("islet-bridge-chat-");
    dirs.write({ "work/.keep": "" });
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
  });

  afterEach(() => {
    owner?.close();
    assert.equal(model.remaining, 0, "every scripted answer was asked for");
  });

  after(async () => {
    await host.close();
    await model.close();
    dirs.remove();
  });

  async function openChat(): Promise<string> {
    owner = recordingClient(host.service);
    const opened = (await owner.call("chat/open", {})) as ChatOpened;
    assert.equal(opened.resumed, false);
    return opened.conversationId;
  }

  function send(
    conversationId: string,
    text: string,
    signal?: AbortSignal,
  ): { events: AgentEvent[]; result: Promise<ChatOutcome> } {
    const events: AgentEvent[] = [];
    const result = owner.stream(
      "chat/send",
      { conversationId, text },
      (e) => events.push(e as AgentEvent),
      signal,
    ) as Promise<ChatOutcome>;
    return { events, result };
  }

  it("asks the owner about Write; allowed, the file is written", async () => {
    model.push(writeCall("allowed.txt"), { text: ["Done."] });
    const id = await openChat();
    const turn = send(id, "write allowed.txt");
    const asked = (await owner.next("question/asked")) as QuestionAsked;
    assert.equal(asked.conversationId, id);
    assert.deepEqual(asked.question, {
      kind: "approval",
      tool: "Write",
      arguments: { path: "allowed.txt", content: "written by the model\n" },
      workdir: dirs.path("work"),
      // A new file: nothing before, its content after (the app shows it, or a diff).
      change: { path: "allowed.txt", before: null, after: "written by the model\n" },
    });
    await owner.call("question/answer", { id: asked.id, kind: "approval", answer: "allow" });
    const outcome = await turn.result;
    assert.deepEqual(outcome, { status: "done", text: "Done.", command: null, error: null });
    assert.equal(readFileSync(dirs.path("work", "allowed.txt"), "utf8"), "written by the model\n");
    const result = turn.events.find((e) => e.type === "tool_result");
    assert.equal(result?.type === "tool_result" && result.error, false);
    assert.equal(turn.events.at(-1)?.type, "done");
  });

  it("denied, the file is not written and the model is told", async () => {
    model.push(writeCall("denied.txt"), { text: ["Understood."] });
    const id = await openChat();
    const turn = send(id, "write denied.txt");
    const asked = (await owner.next("question/asked")) as QuestionAsked;
    await owner.call("question/answer", { id: asked.id, kind: "approval", answer: "deny" });
    assert.equal((await turn.result).status, "done");
    assert.ok(!existsSync(dirs.path("work", "denied.txt")));
    const result = turn.events.find((e) => e.type === "tool_result");
    assert.ok(result?.type === "tool_result" && result.error);
    assert.equal(result.denied, "user", "shown as the person's choice, not a failure");
    assert.match(result.output, /^Not run: the user declined this Write call.*Do not retry/);
  });

  it("chat/stop withdraws the open question; the turn ends stopped and writes nothing", async () => {
    model.push(writeCall("stopped.txt"));
    const id = await openChat();
    const turn = send(id, "write stopped.txt");
    const asked = (await owner.next("question/asked")) as QuestionAsked;
    assert.deepEqual(await owner.call("chat/stop", { conversationId: id }), { stopped: true });
    assert.deepEqual(await owner.next("question/withdrawn"), { id: asked.id, reason: "stopped" });
    assert.equal((await turn.result).status, "stopped");
    assert.ok(!existsSync(dirs.path("work", "stopped.txt")));
    await assert.rejects(
      owner.call("question/answer", { id: asked.id, kind: "approval", answer: "allow" }),
      /is not open/,
    );
    assert.deepEqual(await owner.call("chat/stop", { conversationId: id }), { stopped: false });
  });

  it("cancelling chat/send stops the turn mid-answer; the conversation takes the next prompt", async () => {
    model.push({ text: ["Thinking about it"], hang: true }, { text: ["Second answer."] });
    const id = await openChat();
    const asked = model.chatRequests.length;
    const cancel = new AbortController();
    const turn = send(id, "a long one", cancel.signal);
    while (!turn.events.some((e) => e.type === "assistant_delta"))
      await new Promise((r) => setTimeout(r, 10));
    cancel.abort();
    await assert.rejects(turn.result, CallCancelled);
    // Once cancelled the model's stream is cut (the fake server sees the client go away).
    for (let i = 0; i < 100 && !model.chatRequests[asked].closedEarly; i++)
      await new Promise((r) => setTimeout(r, 20));
    assert.equal(model.chatRequests[asked].closedEarly, true);
    const next = send(id, "and now?");
    assert.equal((await next.result).text, "Second answer.");
  });

  it("only the conversation's clients may send to it or stop it", async () => {
    const id = await openChat();
    const stranger = recordingClient(host.service);
    try {
      await assert.rejects(
        stranger.stream("chat/send", { conversationId: id, text: "hi" }, () => {}),
        /chat\/send: conversation .* is not open in this window; open it with chat\/open first/,
      );
      await assert.rejects(
        stranger.call("chat/stop", { conversationId: id }),
        /is not open in this window/,
      );
    } finally {
      stranger.close();
    }
  });

  it("a slash command answers through the same stream; an unknown one is a problem", async () => {
    const id = await openChat();
    const help = await send(id, "/help").result;
    assert.equal(help.status, null);
    assert.equal(help.command?.name, "help");
    assert.match(help.command?.output ?? "", /\/compact/);
    await assert.rejects(send(id, "/nope").result, {
      problem: { source: "chat/send", title: "unknown command /nope; /help lists the commands" },
    });
  });
});
