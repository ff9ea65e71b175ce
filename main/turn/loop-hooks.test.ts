/** The hook points inside the real loop: what the model receives and what the user sees. */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { handler, registryOf } from "./hooks/testing.ts";
import { sentMessages, sentTools, startHarness } from "./testing.ts";

test("beforeChat injects messages, appends to the system prompt, disables tools, and ejects", async () => {
  let turn = 0;
  const h = await startHarness([{ text: ["a"] }, { text: ["b"] }], {
    hooks: registryOf(
      handler("injector", "beforeChat", () =>
        turn++ === 0
          ? { message: "remember the rules", prefix: "[injector] ", role: "user", eject: true }
          : undefined,
      ),
      handler("system", "beforeChat", () => ({ request: { appendSystem: "EXTRA ONE" } })),
      handler("system2", "beforeChat", () => ({
        request: { appendSystem: "EXTRA TWO" },
        disableTools: ["Bash", "Wr*"],
      })),
      handler("shy", "beforeChat", () => ({ notice: "only for the user", message: "never sent" })),
    ),
  });
  try {
    await h.session.send("one");
    const first = sentMessages(h.server, 0);
    assert.match(String(first[0].content), /EXTRA ONE\n\nEXTRA TWO$/);
    assert.deepEqual(
      first.slice(1).map((m) => [m.role, m.content]),
      [
        ["user", "one"],
        ["user", "[injector] remember the rules"],
      ],
    );
    const tools = sentTools(h.server, 0);
    assert.ok(!tools.includes("Bash") && !tools.includes("Write") && tools.includes("Read"));
    assert.deepEqual(
      h.of("injected").map((e) => [e.source, e.role, e.text]),
      [["injector", "user", "[injector] remember the rules"]],
    );
    assert.ok(h.of("notice").some((n) => n.source === "shy" && n.text === "only for the user"));
    assert.ok(!JSON.stringify(h.server.chatRequests).includes("never sent"));

    await h.session.send("two");
    const second = sentMessages(h.server, 1);
    assert.ok(
      !second.some((m) => String(m.content).includes("remember the rules")),
      "ejected after one turn",
    );
    assert.ok(!h.session.state.messages.some((m) => m.source === "injector"));
    assert.ok(h.of("hook_trace").length > 0);
  } finally {
    await h.close();
  }
});

test("beforeChat skip ends the turn without a model call", async () => {
  const h = await startHarness([{ text: ["unused"] }], {
    hooks: registryOf(handler("gate", "beforeChat", () => ({ request: { skip: true } }))),
  });
  try {
    const out = await h.session.send("hi");
    assert.equal(out.status, "skipped");
    assert.equal(h.server.chatRequests.length, 0);
  } finally {
    await h.close();
  }
});

test("afterResponse rewrites what enters history, or keeps the response out", async () => {
  const h = await startHarness(
    [{ text: ["my SECRET plan"] }, { text: ["second"] }, { text: ["third"] }],
    {
      hooks: registryOf(
        handler("redact", "afterResponse", (ctx) =>
          ctx.content.includes("SECRET")
            ? { response: { content: ctx.content.replace("SECRET", "<REDACTED>") } }
            : undefined,
        ),
        handler("forget", "afterResponse", (ctx) =>
          ctx.content === "second" ? { response: { skip: true } } : undefined,
        ),
      ),
    },
  );
  try {
    await h.session.send("one");
    assert.equal(h.of("assistant")[0].text, "my SECRET plan", "the user saw the original");
    await h.session.send("two");
    await h.session.send("three");
    const third = sentMessages(h.server, 2).map((m) => m.content);
    assert.deepEqual(third.slice(1), ["one", "my <REDACTED> plan", "two", "three"]);
  } finally {
    await h.close();
  }
});

test("beforeToolExecution rewrites arguments (re-validated) and blocks with a folded reason", async () => {
  const h = await startHarness(
    [
      { toolCalls: [{ name: "Read", arguments: { path: "wrong.txt" } }] },
      { toolCalls: [{ name: "Ls", arguments: { path: "." } }] },
      { toolCalls: [{ name: "Bash", arguments: { command: "echo hi" } }] },
      { text: ["done"] },
    ],
    {
      hooks: registryOf(
        handler("fix-path", "beforeToolExecution", (ctx) =>
          ctx.toolName === "Read"
            ? { arguments: { path: "right.txt" }, message: "path fixed" }
            : undefined,
        ),
        handler("break-ls", "beforeToolExecution", (ctx) =>
          ctx.toolName === "Ls" ? { arguments: { path: 42 } } : undefined,
        ),
        handler("no-bash", "beforeToolExecution", (ctx) =>
          ctx.toolName === "Bash"
            ? { block: true, message: "Bash is off in this project." }
            : undefined,
        ),
      ),
    },
  );
  try {
    await writeFile(path.join(h.workdir, "right.txt"), "the right file");
    await h.session.send("go");
    const results = h.of("tool_result");
    assert.match(results[0].output, /the right file/);
    assert.equal(results[1].error, true);
    assert.match(results[1].output, /Arguments rewritten by break-ls are invalid for Ls/);
    assert.equal(results[2].error, true);
    assert.equal(results[2].output, "Tool call blocked by no-bash. Bash is off in this project.");
    assert.deepEqual(
      h.of("injected").map((e) => e.text),
      ["path fixed"],
      "only the surviving call's message is injected",
    );
    const afterRead = sentMessages(h.server, 1);
    assert.deepEqual(
      afterRead.slice(-2).map((m) => m.role),
      ["tool", "assistant"],
      "injection follows the tool results",
    );
  } finally {
    await h.close();
  }
});

test("afterToolExecution rewrites the output the model receives", async () => {
  const h = await startHarness(
    [
      { toolCalls: [{ name: "Bash", arguments: { command: "echo /home/user/x" } }] },
      { text: ["ok"] },
    ],
    {
      hooks: registryOf(
        handler("redact", "afterToolExecution", (ctx) => ({
          output: ctx.tool.result.replaceAll("/home/user", "<HOME>"),
        })),
      ),
    },
  );
  try {
    await h.session.send("go");
    const tool = sentMessages(h.server, 1).find((m) => m.role === "tool");
    assert.match(String(tool?.content), /<HOME>\/x/);
    assert.ok(!String(tool?.content).includes("/home/user"));
  } finally {
    await h.close();
  }
});

test("afterToolExecution sees the call in toolHistory (loop detectors need its arguments)", async () => {
  const seen: string[] = [];
  const h = await startHarness(
    [{ toolCalls: [{ name: "Ls", arguments: { path: "." } }] }, { text: ["ok"] }],
    {
      hooks: registryOf(
        handler(
          "spy",
          "afterToolExecution",
          (ctx) => void seen.push(ctx.toolHistory.at(-1)?.argsJson ?? ""),
        ),
      ),
    },
  );
  try {
    await h.session.send("go");
    assert.deepEqual(seen, ['{"path":"."}']);
  } finally {
    await h.close();
  }
});

test("transformMessages changes only what this call sends", async () => {
  const h = await startHarness([{ text: ["a"] }, { text: ["b"] }], {
    hooks: registryOf(
      handler("only-last-user", "transformMessages", (ctx) => {
        const lastUser = ctx.messages.findLast((m) => m.role === "user");
        return [
          ctx.messages[0],
          ...(lastUser ? [{ ...lastUser, content: lastUser.content.toUpperCase() }] : []),
        ];
      }),
    ),
  });
  try {
    await h.session.send("first");
    await h.session.send("second");
    assert.deepEqual(
      sentMessages(h.server, 1)
        .map((m) => m.content)
        .slice(1),
      ["SECOND"],
    );
    assert.deepEqual(
      h.session.state.messages.map((m) => m.content),
      ["first", "a", "second", "b"],
    );
  } finally {
    await h.close();
  }
});

test("agent switches fire onAgentSwitch with the reason", async () => {
  const reasons: string[] = [];
  const h = await startHarness([], {
    agents: [
      { name: "reviewer", description: "", systemPrompt: "Review.", maxSteps: 5, failover: [] },
    ],
    hooks: registryOf(
      handler(
        "watch",
        "onAgentSwitch",
        (ctx) => (
          reasons.push(`${ctx.previousAgent}>${ctx.newAgent}:${ctx.reason}`),
          { notice: "seen" }
        ),
      ),
    ),
  });
  try {
    await h.session.switchAgent("reviewer", "user");
    assert.deepEqual(reasons, ["default>reviewer:user"]);
    assert.deepEqual(
      h.of("notice").map((n) => n.text),
      ["seen"],
    );
  } finally {
    await h.close();
  }
});

test("beforeCompaction can skip compaction", async () => {
  const h = await startHarness([{ text: ["a"] }, { text: ["b"] }], {
    hooks: registryOf(handler("mine", "beforeCompaction", () => ({ compaction: { skip: true } }))),
  });
  try {
    h.deps.compaction.keepLast = 1;
    await h.session.send("1");
    await h.session.send("2");
    const r = await h.session.compact();
    assert.equal(r.skipped, true);
    assert.equal(h.session.state.messages.length, 4);
    assert.equal(h.server.chatRequests.length, 2);
  } finally {
    await h.close();
  }
});
