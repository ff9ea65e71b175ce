/** `islet run` end to end: a real `islet` process against loopback servers speaking real protocols. */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOllama, startFakeOpenAI } from "../providers/testing/index.ts";
import { SessionStore } from "../sessions/store.ts";
import { islet, PRELOAD, tempDirs } from "./testing/islet.ts";

test("islet run --json: a tool round trip, the JSONL events and the saved session", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOpenAI([
    {
      text: ["Let me look."],
      toolCalls: [{ name: "Read", arguments: { path: "notes.txt" } }],
      usage: { input: 120, output: 9 },
    },
    { text: ["The note says ", "hello."], usage: { input: 160, output: 5 } },
  ]);
  try {
    await writeFile(path.join(dirs.workdir, "notes.txt"), "hello\n");
    const ran = await islet([
      "run",
      "--json",
      "--provider",
      "openai-compatible",
      "--base-url",
      server.url,
      "--model",
      "m",
      "--yes",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
      "What",
      "does",
      "notes.txt",
      "say?",
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    const events = ran.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const types = events.map((e) => e.type);
    assert.deepEqual(
      [...new Set(types)],
      ["assistant_delta", "assistant", "tool_call", "tool_result", "done"],
    );
    assert.equal(types.at(-1), "done");
    const call = events.find((e) => e.type === "tool_call")!;
    assert.equal(call.name, "Read");
    assert.deepEqual(call.arguments, { path: "notes.txt" });
    const result = events.find((e) => e.type === "tool_result")!;
    assert.equal(result.name, "Read");
    assert.equal(result.error, false);
    assert.match(String(result.output), /hello/);
    assert.equal(typeof result.durationMs, "number");
    const finals = events.filter((e) => e.type === "assistant").map((e) => e.text);
    assert.deepEqual(finals, ["Let me look.", "The note says hello."]);
    const done = events.at(-1)!;
    const stats = done.stats as {
      turns: number;
      tools: { calls: number };
      tokens: { in: number; out: number };
    };
    assert.equal(stats.turns, 2);
    assert.equal(stats.tools.calls, 1);
    assert.deepEqual(stats.tokens, { in: 280, out: 14 });

    // The model received the tool result.
    const second = server.chatRequests[1].body as {
      model: string;
      messages: { role: string; content: string }[];
    };
    assert.equal(second.model, "m");
    assert.match(second.messages.find((m) => m.role === "tool")!.content, /hello/);

    // The session was saved under the global home with everything in order.
    const store = SessionStore.forHome(dirs.home);
    const saved = await store.load(String(done.sessionId));
    assert.deepEqual(
      saved.messages.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
    assert.equal(saved.messages[0].content, "What does notes.txt say?");
    assert.equal(saved.messages[3].content, "The note says hello.");
    assert.equal(saved.model, "m");
    assert.equal(saved.stats?.turns, 2);
    assert.deepEqual(saved.warnings, []);

    // Resuming continues the same conversation.
    server.push({ text: ["Still hello."] });
    const again = await islet([
      "run",
      "--json",
      "--provider",
      "openai-compatible",
      "--base-url",
      server.url,
      "--model",
      "m",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
      "--session",
      String(done.sessionId).slice(0, 18),
      "And now?",
    ]);
    assert.equal(again.code, 0, again.stderr);
    const resumed = server.chatRequests[2].body as { messages: { role: string }[] };
    assert.equal(resumed.messages.length, 1 + 4 + 1);
    assert.equal((await store.load(String(done.sessionId))).messages.length, 6);
  } finally {
    await server.close();
    await dirs.clean();
  }
});

test("a run against a local model connects to nothing but loopback", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOllama([
    { toolCalls: [{ name: "Ls", arguments: { path: "." } }] },
    { text: ["Done looking."] },
  ]);
  const netLog = path.join(dirs.root, "net.log");
  await writeFile(netLog, "");
  try {
    const ran = await islet(
      [
        "run",
        "--json",
        "--provider",
        "ollama",
        "--base-url",
        server.url,
        "--model",
        "fake:latest",
        "--yes",
        "--home",
        dirs.home,
        "--workdir",
        dirs.workdir,
        "look around",
      ],
      { ISLET_TEST_NET_LOG: netLog },
      ["--import", PRELOAD],
    );
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /Done looking/);
    const entries = (await readFile(netLog, "utf8"))
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind: string; host: string; port?: number });
    assert.ok(
      entries.some((e) => e.kind === "connect" && Number(e.port) === server.port),
      "the recorder saw the model connection",
    );
    const offMachine = entries.filter((e) => !["127.0.0.1", "::1", "localhost"].includes(e.host));
    assert.deepEqual(offMachine, []);
  } finally {
    await server.close();
    await dirs.clean();
  }
});

test("bad usage exits 2 with one line; run errors exit 1 with one line", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOpenAI([{ error: { status: 401 } }]);
  try {
    const bad = await islet(["run", "--max-steps", "zero", "hi"]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr.trim().split("\n").length, 1);
    assert.match(bad.stderr, /--max-steps: expected a positive whole number/);

    const unknown = await islet(["frobnicate"]);
    assert.equal(unknown.code, 2);

    const failed = await islet([
      "run",
      "--json",
      "--provider",
      "openai-compatible",
      "--base-url",
      server.url,
      "--model",
      "m",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
      "hi",
    ]);
    assert.equal(failed.code, 1);
    const events = failed.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; errorType?: string });
    assert.deepEqual(
      events.map((e) => e.type),
      ["error", "done"],
    );
    assert.equal(events[0].errorType, "auth");

    await writeFile(path.join(dirs.root, "providers.yaml"), "");
    const noConfig = await islet([
      "run",
      "--provider",
      "nope",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
      "hi",
    ]);
    assert.equal(noConfig.code, 1);
    assert.equal(noConfig.stderr.trim().split("\n").length, 1, noConfig.stderr);
    assert.match(noConfig.stderr, /unknown provider "nope"/);
  } finally {
    await server.close();
    await dirs.clean();
  }
});
