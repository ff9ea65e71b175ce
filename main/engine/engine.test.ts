/** The engine as hosts use it: configuration from the homes, slash commands, resume. */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { AgentEvent } from "../turn/events.ts";
import { toolsCommand } from "../cli/tools-command.ts";
import { writePlugin } from "./testing.ts";
import { startFakeOllama, startFakeOpenAI } from "../providers/testing/index.ts";
import { YES_FOR_THIS_RUN } from "../host/questions.ts";
import { createEngine } from "./bootstrap.ts";
import { formatProblem } from "../host/problem.ts";

async function homes() {
  const root = await mkdtemp(path.join(tmpdir(), "islet-engine-"));
  const home = path.join(root, "home");
  const workdir = path.join(root, "project");
  await mkdir(path.join(home, "config", "agents"), { recursive: true });
  await mkdir(path.join(workdir, ".islet", "config"), { recursive: true });
  return { root, home, workdir, clean: () => rm(root, { recursive: true, force: true }) };
}

test("providers.yaml in a trusted project home wins, keys come from the env file, agents pick their own model", async () => {
  const h = await homes();
  const global = await startFakeOpenAI([{ text: ["from global"] }]);
  const project = await startFakeOpenAI([{ text: ["from project"] }, { text: ["reviewed"] }]);
  try {
    await writeFile(
      path.join(h.home, "config", "providers.yaml"),
      `default: { provider: main, model: g }\nproviders:\n  main: { type: openai-compatible, base_url: ${global.url} }\n`,
    );
    await writeFile(
      path.join(h.workdir, ".islet", "config", "providers.yaml"),
      `default: { provider: main, model: p }\nproviders:\n  main: { type: openai-compatible, base_url: ${project.url}, api_key_env: PROJECT_KEY }\n`,
    );
    await writeFile(path.join(h.workdir, "secrets.env"), "PROJECT_KEY=sk-test-123\n");
    await writeFile(
      path.join(h.home, "config", "agents", "reviewer.md"),
      "---\nmodel: review-model\n---\nYou review.",
    );
    const warnings: string[] = [];
    const engine = await createEngine({
      home: h.home,
      workdir: h.workdir,
      env: {},
      questions: YES_FOR_THIS_RUN, // trusts the folder for this run, as --yes does
      warn: (p) => warnings.push(formatProblem(p)),
    });
    assert.equal(engine.trust.trusted, true);
    const events: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => events.push(e) });
    const r = await conv.submit("hello");
    assert.equal(r.kind === "turn" && r.outcome.text, "from project");
    const sent = project.chatRequests[0];
    assert.equal((sent.body as { model: string }).model, "p");
    assert.equal(sent.headers.authorization, "Bearer sk-test-123");
    assert.equal(global.chatRequests.length, 0);

    const switched = await conv.submit("/agent reviewer");
    assert.equal(switched.kind, "command");
    await conv.submit("check this");
    assert.equal((project.chatRequests[1].body as { model: string }).model, "review-model");
    assert.match(JSON.stringify(project.chatRequests[1].body), /You review\./);
    assert.deepEqual(warnings, []);
    await conv.close();

    // Resume: the agent and the whole history come back.
    const resumed = await engine.open({ sessionId: conv.id, emit: () => {} });
    assert.equal(resumed.session.state.agent.name, "reviewer");
    assert.deepEqual(
      resumed.session.state.messages.map((m) => m.content),
      ["hello", "from project", "check this", "reviewed"],
    );
    await resumed.close();
  } finally {
    await global.close();
    await project.close();
    await h.clean();
  }
});

test("slash commands: /help, /tools, /stats, /compact, unknown commands", async () => {
  const h = await homes();
  const srv = await startFakeOpenAI([
    { text: ["a1"] },
    { text: ["a2"] },
    { text: ["a3"] },
    { text: ["a4"] },
    { text: ["summary"] },
  ]);
  try {
    const engine = await createEngine({
      home: h.home,
      workdir: h.workdir,
      env: {},
      flags: { provider: "openai-compatible", baseUrl: srv.url, model: "m" },
      warn: () => {},
    });
    const events: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => events.push(e) });
    const help = await conv.submit("/help");
    assert.ok(help.kind === "command" && /\/compact — /.test(help.output));
    const tools = await conv.submit("/tools");
    assert.ok(tools.kind === "command" && tools.output.split("\n").includes("Bash"));
    for (const q of ["q1", "q2", "q3", "q4"]) await conv.submit(q);
    const compact = await conv.submit("/compact");
    assert.ok(
      compact.kind === "command" && /Compacted 8 messages into 7/.test(compact.output),
      compact.kind === "command" ? compact.output : "",
    );
    const stats = await conv.submit("/stats");
    assert.ok(stats.kind === "command" && /turns 4/.test(stats.output));
    await assert.rejects(conv.submit("/nope"), /unknown command \/nope; \/help lists the commands/);
    assert.ok(events.filter((e) => e.type === "done").length >= 7, "every command ends with done");
    await conv.close();
  } finally {
    await srv.close();
    await h.clean();
  }
});

test("with nothing configured, a detected local Ollama and its first model are used", async () => {
  const h = await homes();
  const ollama = await startFakeOllama([{ text: ["local answer"] }], {
    models: [{ name: "qwen3:8b", contextLength: 40960, capabilities: ["completion", "tools"] }],
  });
  try {
    const { detectLocalServers } = await import("../providers/index.ts");
    const engine = await createEngine({
      home: h.home,
      workdir: h.workdir,
      env: {},
      detect: () =>
        detectLocalServers({ ports: { ollama: ollama.port, lmstudio: 1, llamacpp: 1 } }),
      warn: () => {},
    });
    const conv = await engine.open({ emit: () => {} });
    const r = await conv.submit("hi");
    assert.equal(r.kind === "turn" && r.outcome.text, "local answer");
    assert.equal((ollama.chatRequests[0].body as { model: string }).model, "qwen3:8b");
    assert.equal(conv.session.state.resolved?.info.contextLength, 16_384);
    await conv.close();
  } finally {
    await ollama.close();
    await h.clean();
  }
});

test("a model without native tools gets them through the text protocol", async () => {
  const h = await homes();
  const ollama = await startFakeOllama(
    [
      { text: ['<tool_call>{"name": "Ls", "arguments": {"path": "."}}</tool_call>'] },
      { text: ["listed"] },
    ],
    { models: [{ name: "tiny:1b", contextLength: 8192, capabilities: ["completion"] }] },
  );
  try {
    const engine = await createEngine({
      home: h.home,
      workdir: h.workdir,
      env: {},
      flags: { provider: "ollama", baseUrl: ollama.url, model: "tiny:1b" },
      warn: () => {},
    });
    const events: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => events.push(e) });
    await conv.submit("what is here?");
    const first = ollama.chatRequests[0].body as {
      tools?: unknown;
      messages: { role: string; content: string }[];
    };
    assert.equal(first.tools, undefined, "no native tools sent");
    assert.match(first.messages[0].content, /<tool_call>/);
    assert.deepEqual(
      events.filter((e) => e.type === "tool_call").map((e) => e.type === "tool_call" && e.name),
      ["Ls"],
    );
    const second = ollama.chatRequests[1].body as { messages: { role: string; content: string }[] };
    assert.match(second.messages.at(-1)!.content, /<tool_result name="Ls"/);
    await conv.close();
  } finally {
    await ollama.close();
    await h.clean();
  }
});

test("plugins loaded after a conversation opened serve it; when a Read override goes away the built-in Read is back", async () => {
  const h = await homes();
  const readCall = { toolCalls: [{ name: "Read", arguments: { path: "notes.txt" } }] };
  const srv = await startFakeOpenAI([readCall, { text: ["1"] }, readCall, { text: ["2"] }]);
  const flags = { pluginRuntime: process.env.ISLET_TEST_PLUGIN_RUNTIME };
  try {
    await writeFile(path.join(h.workdir, "notes.txt"), "real notes\n");
    await writePlugin(path.join(h.home, "plugins", "reader"), {
      yaml: "override: true\n",
      code: `
      export function schema() { return { name: "Read", description: "mine", parameters: { type: "object", properties: { path: { type: "string", description: "f" } } } }; }
      export function execute(ctx, args) { return "plugin read " + args.path; }
      export function beforeChat() { return { notice: "reader is loaded" }; }`,
    });
    const engine = await createEngine({
      home: h.home,
      workdir: h.workdir,
      env: {},
      flags: { provider: "openai-compatible", baseUrl: srv.url, model: "m" },
      // An override asks under its own name (it never inherits Read's allow rule): yes here.
      questions: YES_FOR_THIS_RUN,
      warn: () => {},
    });
    const events: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => events.push(e) });
    // The conversation is older than the plugins: it still sees their hooks and tools.
    await engine.loadPlugins(flags);
    await conv.submit("read it");
    const of = <T extends AgentEvent["type"]>(type: T) =>
      events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
    const notices = of("notice").length;
    assert.ok(notices > 0, "the plugin's beforeChat ran");
    assert.ok(of("notice").every((n) => n.text === "reader is loaded"));
    assert.equal(of("tool_result")[0].output, "plugin read notes.txt");

    // The plugin goes away and the plugins are loaded again: Read is the built-in once more.
    await rm(path.join(h.home, "plugins", "reader"), { recursive: true });
    await writePlugin(path.join(h.home, "plugins", "other"), {
      code: `export function afterResponse() {}`,
    });
    await engine.loadPlugins(flags);
    await conv.submit("read it again");
    assert.match(of("tool_result")[1].output, /1\s+real notes/);
    let printed = "";
    const io = { out: (s: string) => void (printed += s), err: (s: string) => void (printed += s) };
    assert.equal(await toolsCommand(engine.tools, ["Read", "path=notes.txt"], h.workdir, io), 0);
    assert.match(printed, /1\s+real notes/);
    // /plugins is served by the plugins loaded last, not by the ones they replaced.
    const listing = await conv.submit("/plugins");
    assert.ok(listing.kind === "command" && /other/.test(listing.output), JSON.stringify(listing));
    assert.equal(of("notice").length, notices, "the removed plugin's hook no longer runs");
    await conv.close();
    await engine.close();
  } finally {
    await srv.close();
    await h.clean();
  }
});
