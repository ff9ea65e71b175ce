/**
 * New plugins from each template in resources/plugin-templates/, unchanged: each loads at once
 * and acts on the next turn (a real engine, the real watcher, a loopback fake model).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOpenAI, type FakeServer } from "../../providers/testing/index.ts";
import type { ChatOpened, ChatOutcome, QuestionAsked } from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import type { SaveOutcome } from "../schemas/editor.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

interface Sent {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
}
const lastRequest = (model: FakeServer) => model.chatRequests.at(-1)?.body as Sent;

describe("bridge: new plugins from the templates act on the next turn", () => {
  let dirs: TempDir;
  let model: FakeServer;
  let host: BridgeHost;
  let client: RecordingClient;
  let conversation: string;

  before(async () => {
    dirs = tempDir("islet-templates-");
    dirs.write({ "home/plugins/.keep": "", "work/long.txt": "word ".repeat(200) });
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
    conversation = ((await client.call("chat/open", {})) as ChatOpened).conversationId;
  });

  after(async () => {
    client.close();
    await host.close();
    await model.close();
    dirs.remove();
  });

  const send = (text: string) =>
    client.stream(
      "chat/send",
      { conversationId: conversation, text },
      () => {},
    ) as Promise<ChatOutcome>;

  async function create(template: string, name: string): Promise<void> {
    const made = (await client.call("editor/newPlugin", { template, name, scope: "global" })) as {
      outcome: SaveOutcome;
      entry: string;
    };
    assert.equal(made.outcome.report?.ok, true, JSON.stringify(made.outcome));
    assert.equal(made.entry, "index.ts");
    assert.equal(host.engine.plugins!.get(name)?.plugin.status, "active");
  }

  it("lists the four templates", async () => {
    const { templates } = (await client.call("editor/templates", undefined)) as {
      templates: { id: string }[];
    };
    assert.deepEqual(
      templates.map((t) => t.id),
      ["before-chat-injector", "tool", "command", "after-tool-filter"],
    );
  });

  it("beforeChat injector: its note is in the next request's system prompt", async () => {
    await create("before-chat-injector", "plain-english");
    model.push({ text: ["ok"] });
    await send("hello");
    const system = lastRequest(model).messages.find((m) => m.role === "system")?.content;
    assert.match(system ?? "", /Answer in plain English and keep it short\./);
  });

  it("tool: offered on the next turn, and runs when the model calls it", async () => {
    await create("tool", "word-counter");
    const asked = client.next("question/asked") as Promise<QuestionAsked>;
    model.push(
      { toolCalls: [{ name: "WordCounter", arguments: { text: "one three fifteen" } }] },
      { text: ["done"] },
    );
    const outcome = send("count");
    const question = await asked;
    await client.call("question/answer", { id: question.id, kind: "approval", answer: "allow" });
    await outcome;
    const sent = lastRequest(model);
    assert.ok(sent.tools?.some((t) => t.function.name === "WordCounter"));
    const tool = sent.messages.find((m) => m.role === "tool");
    assert.match(tool?.content ?? "", /3 words; the longest is "fifteen"/);
  });

  it("command: /name runs the plugin's command", async () => {
    await create("command", "progress");
    const outcome = await send("/progress nearly there");
    assert.equal(outcome.command?.name, "progress");
    assert.match(outcome.command?.output ?? "", /\d+ turns, \d+ tool calls, .*Note: nearly there/);
  });

  it("afterToolExecution filter: a long tool output reaches the model cut short", async () => {
    await create("after-tool-filter", "output-cutter");
    await client.call("plugins/saveConfig", { name: "output-cutter", values: { max_chars: 100 } });
    model.push(
      { toolCalls: [{ name: "Read", arguments: { path: "long.txt" } }] },
      { text: ["done"] },
    );
    await send("read it");
    const tool = lastRequest(model).messages.findLast((m) => m.role === "tool");
    assert.match(tool?.content ?? "", /\[output-cutter: \d+ characters cut\]/);
    assert.ok((tool?.content.length ?? 0) < 400, tool?.content);
  });

  it("refuses a bad name, an unknown template and a name already taken, in one line", async () => {
    await assert.rejects(
      client.call("editor/newPlugin", { template: "tool", name: "../evil", scope: "global" }),
      /use lower-case letters, digits and dashes/,
    );
    await assert.rejects(
      client.call("editor/newPlugin", { template: "nope", name: "fine", scope: "global" }),
      /no plugin template "nope"/,
    );
    await assert.rejects(
      client.call("editor/newPlugin", { template: "tool", name: "progress", scope: "global" }),
      /already exists/,
    );
  });
});
