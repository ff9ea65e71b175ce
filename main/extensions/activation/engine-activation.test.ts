/**
 * On-demand activation through the real engine: a code plugin with `activation: on-demand` on
 * disk, real isolates, the loopback model server. The model asks, the user answers, the model is
 * told; the plugin's tool joins the next step; the answer is remembered for the workspace.
 */
import assert from "node:assert/strict";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { createEngine } from "../../engine/bootstrap.ts";
import { NOBODY, type Question, type QuestionPort } from "../../host/questions.ts";
import { startPluginHarness, writePlugin, type PluginFiles } from "../../engine/testing.ts";
import { startFakeOpenAI } from "../../providers/testing/index.ts";
import { activationFile } from "./store.ts";
import { answering, type ChatBody } from "./testing.ts";
import { formatProblem } from "../../host/problem.ts";

const wordCount: PluginFiles = {
  yaml: 'description: "Counts the words of a text."\nactivation: on-demand\n',
  code: `
export function schema() {
  return { name: "WordCount", description: "Counts words.", parameters: { type: "object", properties: { text: { type: "string", description: "the text" } }, required: ["text"] } };
}
export async function execute(ctx, args) { return "words=" + args.text.split(/\\s+/).length; }`,
};

const activateCall = {
  toolCalls: [{ name: "activate_plugin", arguments: { name: "wordcount", reason: "to count" } }],
};

test("the model asks, the user allows: the plugin's tool joins the next step and its output reaches the model", async () => {
  const { port, asked } = answering("allow");
  const h = await startPluginHarness({
    plugins: { wordcount: wordCount },
    questions: port,
    script: [
      activateCall,
      { toolCalls: [{ name: "WordCount", arguments: { text: "one two three" } }] },
      { text: ["three words"] },
    ],
  });
  try {
    assert.equal(h.engine.tools.get("WordCount"), undefined, "not loaded before activation");
    await h.conversation.submit("count the words");
    const bodies = h.server.chatRequests.map((r) => r.body as ChatBody);
    const tools = (i: number) => (bodies[i].tools ?? []).map((t) => t.function.name);
    assert.match(bodies[0].messages[0].content, /- wordcount \(inactive\): Counts the words/);
    assert.ok(tools(0).includes("activate_plugin") && !tools(0).includes("WordCount"));
    // The same user turn: the loop read the tool list again at its next model call.
    assert.ok(tools(1).includes("WordCount"));
    assert.match(bodies[1].messages[0].content, /- wordcount \(active\)/);
    assert.equal(
      bodies[1].messages.at(-1)?.content,
      "wordcount is active; its tools are available now: WordCount",
    );
    assert.equal(bodies[2].messages.at(-1)?.content, "words=3");
    const question = asked.find((q) => q.kind === "plugin-activation");
    assert.deepEqual(question && { ...question, details: question.details.length }, {
      kind: "plugin-activation",
      plugin: "wordcount",
      pluginKind: "code",
      description: "Counts the words of a text.",
      reason: "to count",
      details: 2,
    });
    const saved = JSON.parse(await readFile(activationFile(h.home), "utf8")) as {
      workspaces: Record<string, Record<string, unknown>>;
    };
    assert.deepEqual(
      Object.values(saved.workspaces).map((w) => Object.keys(w)),
      [["wordcount"]],
    );
  } finally {
    await h.close();
  }
});

test("the user denies: the model is told, the plugin stays inactive and nothing is remembered", async () => {
  const { port } = answering("deny");
  const h = await startPluginHarness({
    plugins: { wordcount: wordCount },
    questions: port,
    script: [activateCall, { text: ["ok, without it"] }],
  });
  try {
    await h.conversation.submit("count the words");
    const second = h.server.chatRequests[1].body as ChatBody;
    assert.equal(
      second.messages.at(-1)?.content,
      "wordcount was not activated: the user denied it",
    );
    assert.ok(!(second.tools ?? []).some((t) => t.function.name === "WordCount"));
    assert.equal(h.engine.activation.list()[0].status, "inactive");
    await assert.rejects(readFile(activationFile(h.home), "utf8"), { code: "ENOENT" });
  } finally {
    await h.close();
  }
});

test("nobody to ask (headless without --yes): denied, and the model is told why", async () => {
  const h = await startPluginHarness({
    plugins: { wordcount: wordCount },
    questions: NOBODY,
    script: [activateCall, { text: ["ok"] }],
  });
  try {
    await h.conversation.submit("count");
    const second = h.server.chatRequests[1].body as ChatBody;
    assert.equal(
      second.messages.at(-1)?.content,
      "wordcount was not activated: nobody could confirm it (headless runs need --yes)",
    );
  } finally {
    await h.close();
  }
});

test("an unknown name: the model gets the list of names; a broken plugin: failed with its reason", async () => {
  const { port } = answering("allow");
  const h = await startPluginHarness({
    plugins: {
      wordcount: wordCount,
      broken: { yaml: "activation: on-demand\n", code: "export function (" },
    },
    questions: port,
    script: [
      { toolCalls: [{ name: "activate_plugin", arguments: { name: "nope", reason: "x" } }] },
      { toolCalls: [{ name: "activate_plugin", arguments: { name: "broken", reason: "x" } }] },
      { text: ["ok"] },
    ],
  });
  try {
    await h.conversation.submit("go");
    const last = (i: number) =>
      (h.server.chatRequests[i].body as ChatBody).messages.at(-1)?.content;
    assert.equal(last(1), 'unknown plugin "nope"; the plugins are: broken, wordcount');
    assert.match(last(2) ?? "", /^broken failed to activate: .+/);
    const broken = h.engine.activation.list().find((e) => e.name === "broken");
    assert.equal(broken?.status, "failed");
    assert.match(h.engine.activation.fragmentText(), /- broken \(failed: /);
  } finally {
    await h.close();
  }
});

test("/plugin activate, list and deactivate; the sandbox goes with deactivation and engine close", async () => {
  const { port, asked } = answering("allow");
  const h = await startPluginHarness({ plugins: { wordcount: wordCount }, questions: port });
  try {
    const out = async (line: string) => {
      const r = await h.conversation.submit(line);
      return r.kind === "command" ? r.output : "";
    };
    assert.match(
      await out("/plugins"),
      /^wordcount: on demand, inactive \(`\/plugin activate wordcount` loads it\)$/m,
    );
    assert.equal(
      await out("/plugin list"),
      "wordcount (code, inactive) — Counts the words of a text.",
    );
    assert.equal(
      await out("/plugin activate wordcount"),
      "wordcount is active; its tools are available now: WordCount",
    );
    assert.equal(asked.filter((q) => q.kind === "plugin-activation").length, 1);
    assert.equal(h.engine.plugins?.get("wordcount")?.plugin.status, "active");
    assert.equal(await out("/plugin deactivate wordcount"), "wordcount is inactive now.");
    assert.equal(h.engine.tools.get("WordCount"), undefined);
    assert.equal(h.engine.plugins?.get("wordcount"), undefined, "its sandbox is disposed");
    await out("/plugin activate wordcount");
    const loaded = h.engine.plugins?.get("wordcount")?.plugin;
    assert.equal(loaded?.status, "active");
    await h.engine.activation.deactivateAll();
    assert.equal(h.engine.plugins?.get("wordcount"), undefined);
  } finally {
    await h.close();
  }
});

test("remembered per workspace: a new engine re-activates it without asking; a changed plugin.yaml asks again", async () => {
  const { port } = answering("allow");
  const h = await startPluginHarness({ plugins: { wordcount: wordCount }, questions: port });
  const { home, workdir } = h;
  await h.conversation.submit("/plugin activate wordcount");
  // Closed by hand: h.close() would delete the home reused below.
  await h.conversation.close();
  await h.engine.close();
  await h.server.close();
  const srv = await startFakeOpenAI([]);
  const open = async (questions: QuestionPort) => {
    const warnings: string[] = [];
    const engine = await createEngine({
      home,
      workdir,
      env: {},
      flags: { provider: "openai-compatible", baseUrl: srv.url, model: "m" },
      plugins: {},
      questions,
      warn: (p) => warnings.push(formatProblem(p)),
    });
    return { engine, warnings };
  };
  try {
    const again = answering("deny");
    const second = await open(again.port);
    assert.equal(second.engine.activation.list()[0].status, "active");
    assert.ok(second.engine.tools.get("WordCount"));
    assert.deepEqual(again.asked, []);
    await second.engine.close();

    await writePlugin(path.join(home, "plugins", "wordcount"), {
      ...wordCount,
      yaml: `${wordCount.yaml}permissions:\n  network: [{ host: example.com, reason: "posts counts" }]\n`,
    });
    const changed = answering("allow");
    const third = await open(changed.port);
    assert.equal(third.engine.activation.list()[0].status, "inactive");
    assert.ok(third.warnings.some((w) => /wordcount changed since it was activated/.test(w)));
    const outcome = await third.engine.activation.activate("wordcount", { by: "user", reason: "" });
    assert.equal(outcome.kind, "activated");
    const question = changed.asked.find((q) => q.kind === "plugin-activation");
    assert.ok(question?.details.some((l) => l.includes("network example.com")));
    await third.engine.close();
  } finally {
    await srv.close();
    await rm(path.dirname(home), { recursive: true, force: true });
  }
});

test("a project's on-demand plugin in an untrusted folder is held back and cannot be activated", async () => {
  const { port, asked } = answering("allow");
  const h = await startPluginHarness({ plugins: {}, questions: NOBODY });
  const srv = await startFakeOpenAI([]);
  try {
    const projectPlugin = path.join(h.workdir, ".islet", "plugins", "local");
    await mkdir(projectPlugin, { recursive: true });
    await writePlugin(projectPlugin, wordCount);
    await writeFile(path.join(h.workdir, "x.txt"), "");
    const engine = await createEngine({
      home: h.home,
      workdir: h.workdir,
      env: {},
      flags: { provider: "openai-compatible", baseUrl: srv.url, model: "m" },
      plugins: {},
      questions: port,
      warn: () => {},
    });
    try {
      assert.equal(engine.trust.trusted, false);
      const [entry] = engine.activation.list();
      assert.equal(entry.status, "held-back");
      const outcome = await engine.activation.activate("local", { by: "user", reason: "" });
      assert.equal(outcome.kind, "held-back");
      assert.match(outcome.line, /trust it with `islet trust add`/);
      assert.deepEqual(
        asked.filter((q) => q.kind === "plugin-activation"),
        [],
      );
      assert.match(
        engine.activation.fragmentText(),
        /- local \(held back: its folder is not trusted\)/,
      );
    } finally {
      await engine.close();
    }
  } finally {
    await srv.close();
    await h.close();
  }
});

test("an on-demand plugin's permission requests are asked when it is activated, not at start", async () => {
  const asked: Question[] = [];
  const port = {
    ask: async (q: Question) => {
      asked.push(q);
      return q.kind === "plugin-activation" ? "allow" : q.kind === "permissions" ? "grant" : "deny";
    },
  } as QuestionPort;
  const h = await startPluginHarness({
    plugins: {
      notifier: {
        yaml: 'description: "Posts counts."\nactivation: on-demand\npermissions:\n  network: [{ host: push.example.com, reason: "posts counts" }]\n',
        code: "export function beforeChat() {}",
      },
    },
    questions: port,
  });
  try {
    assert.equal(asked.length, 0, "nothing is asked for a plugin that does not load");
    const outcome = await h.engine.activation.activate("notifier", { by: "user", reason: "" });
    assert.equal(outcome.kind, "activated");
    // Asked in the background, as at start-up; this waits for the answer and the reload.
    await h.engine.askPluginPermissions();
    assert.deepEqual(
      asked.map((q) => q.kind),
      ["plugin-activation", "permissions"],
    );
    const activation = asked[0];
    assert.ok(
      activation.kind === "plugin-activation" &&
        activation.details.includes("asks for: network push.example.com — posts counts"),
    );
    assert.deepEqual(
      h.engine.consent.permissionsOf("notifier").map((p) => [p.target, p.status]),
      [["push.example.com", "granted"]],
    );
    assert.equal(h.engine.plugins?.get("notifier")?.plugin.status, "active");
  } finally {
    await h.close();
  }
});
