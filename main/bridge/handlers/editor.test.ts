/**
 * `editor/*` and plugin state on a real engine (real sandboxes, the real watcher, a loopback fake
 * model): a save reloads and the next request to the model changes; a broken save is marked at
 * its line while the last good version keeps serving; paths that escape are refused.
 */
import assert from "node:assert/strict";
import { readFileSync, symlinkSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOpenAI, type FakeServer } from "../../providers/testing/index.ts";
import type { ChatOpened, PluginList } from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import type { SaveOutcome } from "../schemas/editor.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

const injector = (word: string) =>
  `export function beforeChat() {\n  return { request: { appendSystem: "say ${word}" } };\n}\n`;

/** The system prompt of the fake model's latest request. */
function lastSystem(model: FakeServer): string {
  const body = model.chatRequests.at(-1)?.body as { messages: { role: string; content: string }[] };
  return body.messages.find((m) => m.role === "system")?.content ?? "";
}

describe("bridge: the plugin editor on a real engine", () => {
  let dirs: TempDir;
  let model: FakeServer;
  let host: BridgeHost;
  let client: RecordingClient;
  let conversation: string;

  before(async () => {
    dirs = tempDir("islet-editor-");
    dirs.write({
      "home/plugins/greeter/plugin.yaml":
        'description: "Greets"\nconfig:\n  # how loud\n  volume: 3\n  name: "Ada"\n',
      "home/plugins/greeter/index.ts": injector("hello"),
      "outside/secret.txt": "secret",
      "work/.keep": "",
    });
    symlinkSync(dirs.path("outside"), dirs.path("home/plugins/greeter/out"));
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

  const turn = async (text = "hi") => {
    model.push({ text: ["ok"] });
    await client.stream("chat/send", { conversationId: conversation, text }, () => {});
  };
  const save = async (content: string, file = "index.ts") =>
    (await client.call("editor/write", { name: "greeter", path: file, content })) as SaveOutcome;

  it("refuses every path that leaves the plugin folder, in one line", async () => {
    const attempts: [string, Record<string, unknown>][] = [
      ["editor/read", { name: "greeter", path: "../../outside/secret.txt" }],
      ["editor/read", { name: "greeter", path: "out/secret.txt" }],
      ["editor/read", { name: "greeter", path: dirs.path("outside/secret.txt") }],
      ["editor/write", { name: "greeter", path: "out/secret.txt", content: "x" }],
      ["editor/write", { name: "greeter", path: "../x.ts", content: "x" }],
      ["editor/create", { name: "greeter", path: "out/new.ts", content: "x" }],
      ["editor/rename", { name: "greeter", from: "index.ts", to: "../../stolen.ts" }],
      ["editor/delete", { name: "greeter", path: "out/secret.txt" }],
    ];
    for (const [call, payload] of attempts) {
      await assert.rejects(
        client.call(call, payload),
        (err: Error) =>
          /not allowed|relative to the plugin folder|leads outside/.test(err.message) &&
          !err.message.includes("\n"),
        `${call} ${JSON.stringify(payload)}`,
      );
    }
    assert.equal(readFileSync(dirs.path("outside/secret.txt"), "utf8"), "secret");
  });

  it("a save reloads the plugin and the next request to the model changes", async () => {
    await turn();
    assert.match(lastSystem(model), /say hello/);
    const out = await save(injector("goodbye"));
    assert.equal(out.report?.ok, true, JSON.stringify(out));
    assert.deepEqual(out.problems, []);
    await turn();
    assert.match(lastSystem(model), /say goodbye/);
    assert.doesNotMatch(lastSystem(model), /say hello/);
  });

  it("a syntax error is marked at its line while the last good version keeps serving", async () => {
    const out = await save(
      'export function beforeChat() {\n  return { request: { appendSystem: "x" } ;\n}\n',
    );
    assert.equal(out.report?.ok, false);
    const [problem] = out.problems;
    assert.equal(problem.file, "index.ts");
    assert.equal(problem.line, 2);
    assert.ok((problem.column ?? 0) > 1, JSON.stringify(problem));
    await turn();
    assert.match(lastSystem(model), /say goodbye/, "the previous version still serves");
    const files = (await client.call("editor/files", { name: "greeter" })) as {
      problems: SaveOutcome["problems"];
    };
    assert.equal(files.problems[0]?.line, 2, "the problem stays until fixed");
    const fixed = await save(injector("again"));
    assert.equal(fixed.report?.ok, true);
    assert.deepEqual(fixed.problems, []);
  });

  it("lists, creates, renames and deletes files", async () => {
    await client.call("editor/create", { name: "greeter", path: "lib/words.ts", content: "" });
    await client.call("editor/rename", { name: "greeter", from: "lib/words.ts", to: "lib/w.ts" });
    let files = (await client.call("editor/files", { name: "greeter" })) as {
      files: { path: string }[];
      entry: string;
    };
    assert.equal(files.entry, "index.ts");
    assert.deepEqual(
      files.files.map((f) => f.path),
      ["index.ts", "lib/w.ts", "plugin.yaml"],
    );
    await client.call("editor/delete", { name: "greeter", path: "lib/w.ts" });
    files = (await client.call("editor/files", { name: "greeter" })) as typeof files;
    assert.deepEqual(
      files.files.map((f) => f.path),
      ["index.ts", "plugin.yaml"],
    );
  });

  it("config: a form from plugin.yaml, values checked by type, saved keeping comments", async () => {
    const { fields } = (await client.call("plugins/config", { name: "greeter" })) as {
      fields: { key: string; type: string; value: unknown }[];
    };
    assert.deepEqual(
      fields.map((f) => [f.key, f.type, f.value]),
      [
        ["volume", "number", 3],
        ["name", "string", "Ada"],
      ],
    );
    await assert.rejects(
      client.call("plugins/saveConfig", { name: "greeter", values: { volume: "loud" } }),
      /config\.volume: expected a number/,
    );
    await assert.rejects(
      client.call("plugins/saveConfig", { name: "greeter", values: { colour: 1 } }),
      /no field "colour"/,
    );
    const out = (await client.call("plugins/saveConfig", {
      name: "greeter",
      values: { volume: 11 },
    })) as SaveOutcome;
    assert.equal(out.report?.ok, true);
    const yaml = readFileSync(dirs.path("home/plugins/greeter/plugin.yaml"), "utf8");
    assert.match(yaml, /# how loud\n {2}volume: 11/);
    assert.equal(host.engine.plugins!.get("greeter")!.spec.config.volume, 11);
  });

  it("disable and enable: written to plugin.yaml, applied by the reload", async () => {
    await client.call("plugins/setEnabled", { name: "greeter", enabled: false });
    assert.match(
      readFileSync(dirs.path("home/plugins/greeter/plugin.yaml"), "utf8"),
      /disabled: true/,
    );
    const list = (await client.call("plugins/list", undefined)) as PluginList;
    assert.equal(list.plugins.find((p) => p.name === "greeter")?.status, "disabled");
    await turn();
    assert.doesNotMatch(lastSystem(model), /say again/);
    await client.call("plugins/setEnabled", { name: "greeter", enabled: true });
    assert.doesNotMatch(
      readFileSync(dirs.path("home/plugins/greeter/plugin.yaml"), "utf8"),
      /disabled/,
    );
    await turn();
    assert.match(lastSystem(model), /say again/);
  });

  it("log lines go to the client watching the plugin, and to no other", async () => {
    const other = recordingClient(host.service);
    const watched = (await client.call("editor/watchLog", { name: "greeter" })) as {
      lines: unknown[];
    };
    assert.ok(Array.isArray(watched.lines));
    await save('export function beforeChat() {\n  console.log("seen by the watcher");\n}\n');
    const next = client.next("plugins/log");
    await turn();
    const event = (await next) as { name: string; line: { text: string } };
    assert.equal(event.name, "greeter");
    assert.match(event.line.text, /seen by the watcher/);
    assert.deepEqual(other.of("plugins/log"), []);
    await client.call("editor/unwatchLog", { name: "greeter" });
    const before = client.of("plugins/log").length;
    await turn();
    assert.equal(client.of("plugins/log").length, before);
    other.close();
  });

  it("a runtime fault is marked at the line of the source the author wrote, not the bundle's", async () => {
    const thrower =
      'import type { BeforeChatContext } from "@islet/sdk";\n\n' +
      "interface Unused {\n  a: string;\n  b: number;\n}\n\n" +
      "export function beforeChat(ctx: BeforeChatContext): undefined {\n" +
      "  const n: number = ctx.stats.turns;\n" +
      '  if (n >= 0) throw new Error("broke on purpose");\n' +
      "  return undefined;\n}\n";
    assert.equal((await save(thrower)).report?.ok, true);
    await turn();
    const files = (await client.call("editor/files", { name: "greeter" })) as {
      problems: SaveOutcome["problems"];
    };
    const fault = files.problems.find((p) => /broke on purpose/.test(p.title));
    assert.ok(fault, JSON.stringify(files.problems));
    assert.equal(fault.file, "index.ts");
    assert.equal(fault.line, 10, JSON.stringify(fault));
  });
});
