/**
 * Replay over the bridge on a real engine: a recorded turn is rebuilt through the real turn loop
 * with the plugin before and after a save, each in a throwaway sandbox; no model is called.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openBridgeHost, type BridgeHost } from "../../bridge/host.ts";
import type { ChatOpened } from "../../bridge/contract.ts";
import type { ReplayResult } from "../../bridge/schemas/editor.ts";
import { recordingClient, type RecordingClient } from "../../bridge/testing.ts";
import { startFakeOpenAI, type FakeServer } from "../../providers/testing/index.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";

const injector = (word: string) =>
  `export function beforeChat() {\n  return { request: { appendSystem: "say ${word}" } };\n}\n`;
const transformer =
  "import type { TransformContext, Message } from '@islet/sdk';\n" +
  "export function transformMessages(ctx: TransformContext): Message[] {\n" +
  "  return ctx.messages.map((m) => m.role === 'user' ? { ...m, content: m.content.toUpperCase() } : m);\n" +
  "}\n";

describe("replay: a recorded turn before and after an edit", () => {
  let dirs: TempDir;
  let model: FakeServer;
  let host: BridgeHost;
  let client: RecordingClient;
  let sessionId: string;

  before(async () => {
    dirs = tempDir("islet-replay-");
    dirs.write({
      "home/plugins/greeter/plugin.yaml": 'description: "Greets"\n',
      "home/plugins/greeter/index.ts": injector("hello"),
      "home/plugins/shouter/plugin.yaml": 'description: "Shouts"\n',
      "home/plugins/shouter/index.ts": "export function beforeChat() { return undefined; }\n",
      "home/plugins/noter/plugin.yaml": 'description: "Notes"\n',
      "home/plugins/noter/index.ts": injector("noted"),
      "work/.keep": "",
    });
    model = await startFakeOpenAI([]);
    host = await openBridgeHost({
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
    client = recordingClient(host.service);
    sessionId = ((await client.call("chat/open", {})) as ChatOpened).conversationId;
    for (const text of ["first question", "second question"]) {
      model.push({ text: ["answer"] });
      await client.stream("chat/send", { conversationId: sessionId, text }, () => {});
    }
  });

  after(async () => {
    client.close();
    await host.close();
    await model.close();
    dirs.remove();
  });

  const replay = (name: string, turn: number) =>
    client.call("editor/replay", { name, sessionId, turn }) as Promise<ReplayResult>;

  it("lists the session's recorded prompts", async () => {
    const listed = (await client.call("editor/recordedTurns", {})) as {
      sessionId: string;
      sessions: { id: string }[];
      turns: { index: number; text: string }[];
    };
    assert.equal(listed.sessionId, sessionId);
    assert.deepEqual(
      listed.turns.map((t) => t.text),
      ["first question", "second question"],
    );
  });

  it("shows what the model would receive before and after a save, without calling it", async () => {
    await client.call("editor/write", {
      name: "greeter",
      path: "index.ts",
      content: injector("goodbye"),
    });
    const requests = model.chatRequests.length;
    const result = await replay("greeter", 1);
    assert.equal(model.chatRequests.length, requests, "no model call");
    assert.equal(result.baseline, "previous");
    assert.match(result.before.system, /say hello/);
    assert.doesNotMatch(result.before.system, /say goodbye/);
    assert.match(result.after.system, /say goodbye/);
    // The recorded history up to that turn, then its prompt.
    assert.deepEqual(
      result.after.messages.map((m) => [m.role, m.content]),
      [
        ["user", "first question"],
        ["assistant", "answer"],
        ["user", "second question"],
      ],
    );
    assert.ok(result.after.tools.some((t) => t.name === "Read"));
    assert.notEqual(result.beforeText, result.afterText);
    assert.match(result.afterText, /# System prompt[\s\S]*say goodbye/);
  });

  it("runs transformMessages too; with no earlier version the baseline is without the plugin", async () => {
    await client.call("editor/write", { name: "shouter", path: "index.ts", content: transformer });
    const result = await replay("shouter", 0);
    assert.equal(result.baseline, "previous");
    assert.deepEqual(result.before.messages.at(-1), { role: "user", content: "first question" });
    assert.deepEqual(result.after.messages.at(-1), { role: "user", content: "FIRST QUESTION" });
    const fresh = await replay("noter", 0);
    assert.equal(fresh.baseline, "without");
    assert.doesNotMatch(fresh.before.system, /say noted/);
    assert.match(fresh.after.system, /say noted/);
  });

  it("a turn that was never recorded is refused in one line", async () => {
    await assert.rejects(replay("greeter", 7), /has 2 recorded prompts; there is no turn 8/);
  });
});
