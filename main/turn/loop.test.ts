import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { DEFAULT_AGENT } from "../agents/definition.ts";
import { startFakeOpenAI } from "../providers/testing/fake-openai.ts";
import { handler, registryOf } from "./hooks/testing.ts";
import { sentMessages, sentTools, startHarness } from "./testing.ts";

test("a plain answer streams deltas and lands in history", async () => {
  const h = await startHarness([{ text: ["Hel", "lo", "!"] }]);
  try {
    const out = await h.session.send("hi");
    assert.equal(out.status, "done");
    assert.equal(out.text, "Hello!");
    assert.equal(
      h
        .of("assistant_delta")
        .map((e) => e.text)
        .join(""),
      "Hello!",
    );
    assert.deepEqual(
      h.of("assistant").map((e) => e.text),
      ["Hello!"],
    );
    assert.equal(h.of("done").length, 1);
    const sent = sentMessages(h.server, 0);
    assert.equal(sent[0].role, "system");
    assert.match(String(sent[0].content), /Working directory: /);
    assert.deepEqual(sent.slice(1), [{ role: "user", content: "hi" }]);
    assert.deepEqual(
      h.session.state.messages.map((m) => [m.role, m.content]),
      [
        ["user", "hi"],
        ["assistant", "Hello!"],
      ],
    );
    assert.equal(h.session.state.stats.turns, 1);
    assert.ok(h.session.state.stats.tokens.in > 0);
  } finally {
    await h.close();
  }
});

test("tool calls run, their results go back to the model, and the loop ends on a plain answer", async () => {
  const h = await startHarness([
    {
      toolCalls: [
        { name: "Read", arguments: { path: "a.txt" } },
        { name: "Read", arguments: { path: "b.txt" } },
      ],
    },
    { text: ["Both files read."] },
  ]);
  try {
    await writeFile(path.join(h.workdir, "a.txt"), "alpha\n");
    await writeFile(path.join(h.workdir, "b.txt"), "beta\n");
    const out = await h.session.send("read both");
    assert.equal(out.status, "done");
    assert.deepEqual(
      h.of("tool_call").map((e) => [e.name, e.arguments]),
      [
        ["Read", { path: "a.txt" }],
        ["Read", { path: "b.txt" }],
      ],
    );
    const results = h.of("tool_result");
    assert.equal(results.length, 2);
    assert.match(results[0].output, /alpha/);
    assert.match(results[1].output, /beta/);
    const second = sentMessages(h.server, 1);
    const tools = second.filter((m) => m.role === "tool");
    assert.equal(tools.length, 2);
    assert.match(String(tools[0].content), /alpha/);
    assert.ok(sentTools(h.server, 0).includes("Bash"));
    assert.equal(h.session.state.stats.tools.calls, 2);
  } finally {
    await h.close();
  }
});

test("read-before-write holds across the loop", async () => {
  const h = await startHarness([
    { toolCalls: [{ name: "Write", arguments: { path: "x.txt", content: "new" } }] },
    { toolCalls: [{ name: "Read", arguments: { path: "x.txt" } }] },
    { toolCalls: [{ name: "Write", arguments: { path: "x.txt", content: "new" } }] },
    { text: ["ok"] },
  ]);
  try {
    await writeFile(path.join(h.workdir, "x.txt"), "old");
    await h.session.send("overwrite x");
    const results = h.of("tool_result");
    assert.equal(results[0].error, true);
    assert.match(results[0].output, /Read/);
    assert.equal(results[2].error, false);
    assert.equal(await readFile(path.join(h.workdir, "x.txt"), "utf8"), "new");
  } finally {
    await h.close();
  }
});

test("max steps stops a model that never stops calling tools", async () => {
  const forever = { toolCalls: [{ name: "Ls", arguments: { path: "." } }] };
  const h = await startHarness([forever, forever, forever, { text: ["Here is where I got to."] }], {
    deps: { maxSteps: 3 },
  });
  try {
    const out = await h.session.send("loop");
    assert.equal(out.status, "max_steps");
    assert.equal(out.text, "Here is where I got to.");
    assert.equal(h.server.chatRequests.length, 4, "three steps, then one answer without tools");
    assert.ok(sentTools(h.server, 2).length > 0);
    assert.deepEqual(sentTools(h.server, 3), []);
    assert.ok(h.of("notice").some((n) => /3 steps/.test(n.text)));
  } finally {
    await h.close();
  }
});

test("Done ends the loop without another model call", async () => {
  const h = await startHarness([
    { text: ["Finished."], toolCalls: [{ name: "Done", arguments: { summary: "all good" } }] },
    { text: ["should not be requested"] },
  ]);
  try {
    const out = await h.session.send("do it");
    assert.equal(out.status, "done");
    assert.equal(h.server.chatRequests.length, 1);
  } finally {
    await h.close();
  }
});

test("transient errors are retried with backoff", async () => {
  const h = await startHarness([
    { error: { status: 500 } },
    { error: { status: 429, headers: { "retry-after": "0" } } },
    { text: ["fine"] },
  ]);
  try {
    const out = await h.session.send("hi");
    assert.equal(out.status, "done");
    assert.equal(out.text, "fine");
    assert.equal(h.of("retry").length, 2);
  } finally {
    await h.close();
  }
});

test("errors that outlast the retries end the run with a classified error", async () => {
  const h = await startHarness([{ error: { status: 401 } }]);
  try {
    const out = await h.session.send("hi");
    assert.equal(out.status, "error");
    assert.deepEqual(
      h.of("error").map((e) => e.errorType),
      ["auth"],
    );
    assert.equal(h.server.chatRequests.length, 1, "auth errors are not retried");
  } finally {
    await h.close();
  }
});

test("context overflow compacts history and retries", async () => {
  const h = await startHarness([
    { text: ["one"] },
    { text: ["two"] },
    { text: ["three"] },
    { error: { status: 400, code: "context_length_exceeded" } },
    { text: ["- the user said one, two, three"] },
    { text: ["answer after compaction"] },
  ]);
  try {
    h.deps.compaction.keepLast = 2;
    await h.session.send("first");
    await h.session.send("second");
    await h.session.send("third");
    const out = await h.session.send("fourth");
    assert.equal(out.text, "answer after compaction");
    const compaction = h.of("compaction");
    assert.equal(compaction.length, 1);
    assert.equal(compaction[0].success, true);
    const [summary] = h.session.state.messages;
    assert.equal(summary.kind, "summary");
    assert.match(summary.content, /the user said one, two, three/);
    const summaryRequest = sentMessages(h.server, 4);
    assert.match(String(summaryRequest[1].content), /first/);
    const retried = sentMessages(h.server, 5);
    assert.match(String(retried[1].content), /Summary of the earlier conversation/);
    assert.equal(h.session.state.stats.compactions, 1);
  } finally {
    await h.close();
  }
});

test("/compact-style manual compaction keeps the recent tail verbatim", async () => {
  const h = await startHarness([{ text: ["a1"] }, { text: ["a2"] }, { text: ["summary text"] }]);
  try {
    h.deps.compaction.keepLast = 2;
    await h.session.send("q1");
    await h.session.send("q2");
    const r = await h.session.compact();
    assert.equal(r.success, true);
    assert.deepEqual(
      h.session.state.messages.map((m) => m.content),
      ["[Summary of the earlier conversation]\nsummary text", "q2", "a2"],
    );
  } finally {
    await h.close();
  }
});

test("automatic compaction fires when the context passes the threshold", async () => {
  const long = "word ".repeat(800);
  const h = await startHarness(
    [{ text: [long] }, { text: [long] }, { text: ["short summary"] }, { text: ["ok"] }],
    {
      contextLength: 4000,
    },
  );
  try {
    h.deps.compaction.keepLast = 2;
    await h.session.send("q1");
    await h.session.send("q2");
    await h.session.send("q3");
    assert.equal(h.of("compaction").length, 1);
    assert.equal(h.of("compaction")[0].forced, false);
    assert.equal(h.session.state.messages[0].kind, "summary");
  } finally {
    await h.close();
  }
});

test("failover switches to the next agent when the provider keeps failing", async () => {
  const backup = await startFakeOpenAI([{ text: ["from backup"] }]);
  const h = await startHarness(
    [{ error: { status: 503 } }, { error: { status: 503 } }, { error: { status: 503 } }],
    {
      agents: [
        { ...DEFAULT_AGENT, name: "primary", failover: ["backup"] },
        { ...DEFAULT_AGENT, name: "backup" },
      ],
      servers: { backup },
    },
  );
  try {
    await h.session.switchAgent("primary", "user");
    const out = await h.session.send("hi");
    assert.equal(out.text, "from backup");
    const switches = h.of("agent_switch");
    assert.deepEqual(
      switches.map((s) => [s.from, s.to, s.reason]),
      [
        ["default", "primary", "user"],
        ["primary", "backup", "failover"],
      ],
    );
    assert.equal(h.session.state.agent.name, "backup");
  } finally {
    await h.close();
  }
});

test("OnError can skip an error or retry it (at most three times)", async () => {
  const skip = await startHarness([{ error: { status: 401 } }], {
    hooks: registryOf(
      handler("quiet", "onError", (ctx) =>
        ctx.errorType === "auth" ? { error: { skip: true }, notice: "auth failed" } : undefined,
      ),
    ),
  });
  try {
    const out = await skip.session.send("hi");
    assert.equal(out.status, "skipped");
    assert.equal(skip.of("error").length, 0);
    assert.deepEqual(
      skip.of("notice").map((n) => n.text),
      ["auth failed"],
    );
  } finally {
    await skip.close();
  }
  let calls = 0;
  const retry = await startHarness(
    Array.from({ length: 6 }, () => ({ error: { status: 401 } })),
    {
      hooks: registryOf(handler("again", "onError", () => (calls++, { error: { retry: true } }))),
    },
  );
  try {
    const out = await retry.session.send("hi");
    assert.equal(out.status, "error");
    assert.equal(retry.server.chatRequests.length, 4, "first call plus three retries");
    assert.equal(calls, 4);
  } finally {
    await retry.close();
  }
});

test("stop() cuts the stream and keeps what was said", async () => {
  const h = await startHarness([{ text: ["partial "], hang: true }]);
  try {
    const pending = h.session.send("talk forever");
    while (h.of("assistant_delta").length === 0) await new Promise((r) => setTimeout(r, 5));
    h.session.stop();
    const out = await pending;
    assert.equal(out.status, "stopped");
    assert.equal(h.session.busy, false);
    assert.equal(h.session.state.messages.at(-1)?.content, "partial ");
    for (let i = 0; i < 100 && !h.server.chatRequests[0].closedEarly; i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.equal(h.server.chatRequests[0].closedEarly, true, "the connection was closed");
  } finally {
    await h.close();
  }
});

test("a denied tool call reaches the model as an error result", async () => {
  const h = await startHarness(
    [
      { toolCalls: [{ name: "Bash", arguments: { command: "rm -rf /tmp/nothing" } }] },
      { text: ["ok"] },
    ],
    {
      deps: { approve: async () => ({ allowed: false, reason: "pass --yes" }) },
    },
  );
  try {
    await h.session.send("run it");
    const [result] = h.of("tool_result");
    assert.equal(result.error, true);
    assert.equal(result.denied, "rule");
    assert.match(result.output, /^Not run: Bash was not allowed \(pass --yes\)\. Do not retry/);
  } finally {
    await h.close();
  }
});

test("unknown tools and unparsable calls are answered with an error, not run", async () => {
  const h = await startHarness([
    {
      toolCalls: [
        { name: "Nope", arguments: {} },
        { name: "Read", arguments: '{"path": ' },
      ],
    },
    { text: ["sorry"] },
  ]);
  try {
    await h.session.send("go");
    const results = h.of("tool_result");
    assert.match(results[0].output, /Unknown tool "Nope"/);
    assert.equal(results[1].error, true);
    assert.equal(h.session.state.stats.parseRetries, 1);
  } finally {
    await h.close();
  }
});

test("a local model's slips in tool arguments are repaired (numbers as text); hooks see the repaired ones", async () => {
  const seen: unknown[] = [];
  const h = await startHarness(
    [
      { toolCalls: [{ name: "Read", arguments: { path: "a.txt", offset: "2", limit: "1" } }] },
      { text: ["Line two."] },
    ],
    {
      hooks: registryOf(
        handler("watch", "beforeToolExecution", (ctx) => {
          seen.push(ctx.arguments);
          return undefined;
        }),
      ),
    },
  );
  try {
    await writeFile(path.join(h.workdir, "a.txt"), "one\ntwo\nthree\n");
    await h.session.send("read line 2");
    const [result] = h.of("tool_result");
    assert.equal(result.error, false, result.output);
    assert.match(result.output, /two/);
    assert.doesNotMatch(result.output, /one|three/);
    assert.deepEqual(seen, [{ path: "a.txt", offset: 2, limit: 1 }]);
  } finally {
    await h.close();
  }
});
