import assert from "node:assert/strict";
import { test } from "node:test";
import { runAfterTool, runBeforeChat, runBeforeTool, runOnError, runReadOnly } from "./pipeline.ts";
import { emptyContext, handler } from "./testing.ts";

const base = emptyContext({
  iteration: 1,
  modelInfo: { name: "m", family: "", parameterCount: 0, contextLength: 0, capabilities: [] },
});

test("beforeChat: notice wins over message, disableTools accumulate, appendSystem composes, skip ORs", async () => {
  const out = await runBeforeChat(
    [
      handler("a", "beforeChat", () => ({
        message: "hidden",
        notice: "shown",
        disableTools: ["Bash"],
      })),
      handler("b", "beforeChat", () => ({
        message: "hi",
        prefix: "[b] ",
        role: "user",
        eject: true,
        request: { appendSystem: "one" },
      })),
      handler("c", "beforeChat", () => ({
        disableTools: ["Wr*"],
        request: { appendSystem: "two", skip: true },
      })),
      handler("d", "beforeChat", () => undefined),
    ],
    base,
  );
  assert.deepEqual(out.notices, [{ source: "a", text: "shown" }]);
  assert.deepEqual(out.injections, [{ source: "b", role: "user", content: "[b] hi", eject: true }]);
  assert.deepEqual(out.disableTools, ["Bash", "Wr*"]);
  assert.deepEqual(out.appendSystem, ["one", "two"]);
  assert.equal(out.skip, true);
  assert.deepEqual(
    out.trace.map((t) => [t.source, t.changed]),
    [
      ["a", ["notice", "disableTools"]],
      ["b", ["message", "appendSystem"]],
      ["c", ["disableTools", "appendSystem", "skip"]],
      ["d", []],
    ],
  );
});

test("messages default to the assistant role", async () => {
  const out = await runBeforeChat([handler("a", "beforeChat", () => ({ message: "x" }))], base);
  assert.equal(out.injections[0].role, "assistant");
  assert.equal(out.injections[0].eject, false);
});

test("a failing or throwing handler becomes a notice and the rest still run", async () => {
  const out = await runBeforeChat(
    [
      handler("bad", "beforeChat", () => ({ status: "error", message: "boom" })),
      {
        source: "worse",
        timing: "beforeChat",
        invoke: () => Promise.reject(new Error("thrown")),
      },
      handler("skipped", "beforeChat", () => ({ status: "skipped", reason: "condition false" })),
      handler("good", "beforeChat", () => ({ message: "ok" })),
    ],
    base,
  );
  assert.deepEqual(
    out.notices.map((n) => n.text),
    ["bad: beforeChat failed: boom", "worse: beforeChat failed: thrown"],
  );
  assert.equal(out.injections.length, 1);
  // A shell hook is named by its plugin and event, as its author wrote it.
  const shell = await runAfterTool(
    [
      {
        ...handler("protect-mcp:PostToolUse", "afterToolExecution", () => ({
          status: "error",
          message: "exited with 1: npm error code ENOTCACHED",
        })),
        claudeHook: true,
      },
    ],
    { ...base, tool: { name: "Read", result: "ok", error: "", duration: 1 } },
  );
  assert.deepEqual(
    shell.notices.map((n) => n.text),
    ["protect-mcp:PostToolUse hook failed: exited with 1: npm error code ENOTCACHED"],
  );
  assert.deepEqual(
    out.trace.map((t) => [t.status, t.detail]),
    [
      ["error", "boom"],
      ["error", "thrown"],
      ["skipped", "condition false"],
      ["ok", undefined],
    ],
  );
});

test("beforeToolExecution: argument rewrites chain and any block wins", async () => {
  const seen: unknown[] = [];
  const out = await runBeforeTool(
    [
      handler("a", "beforeToolExecution", (ctx) => {
        seen.push(ctx.arguments);
        return {
          arguments: { ...ctx.arguments, command: `set -e; ${String(ctx.arguments.command)}` },
        };
      }),
      handler("b", "beforeToolExecution", (ctx) => {
        seen.push(ctx.arguments);
        return { arguments: { ...ctx.arguments, timeout_ms: 5 } };
      }),
      handler("c", "beforeToolExecution", () => ({ block: true, message: "not today" })),
    ],
    { ...base, toolName: "Bash", arguments: { command: "ls" } },
  );
  assert.deepEqual(seen, [{ command: "ls" }, { command: "set -e; ls" }]);
  assert.deepEqual(out.arguments, { command: "set -e; ls", timeout_ms: 5 });
  assert.deepEqual(out.rewrittenBy, ["a", "b"]);
  assert.equal(out.block, true);
  assert.deepEqual(out.blockedBy, ["c"]);
  assert.equal(out.injections[0].content, "not today");
});

test("afterToolExecution: output rewrites chain", async () => {
  const out = await runAfterTool(
    [
      handler("a", "afterToolExecution", (ctx) => ({
        output: ctx.tool.result.replace("/home/u", "~"),
      })),
      handler("b", "afterToolExecution", (ctx) => ({ output: ctx.tool.result.toUpperCase() })),
    ],
    { ...base, tool: { name: "Bash", result: "/home/u/x", error: "", duration: 1 } },
  );
  assert.equal(out.output, "~/X");
});

test("onError: retry and skip use OR logic", async () => {
  const out = await runOnError(
    [
      handler("a", "onError", () => ({ error: { skip: true } })),
      handler("b", "onError", () => ({ error: { retry: true } })),
      handler("c", "onError", () => ({})),
    ],
    { ...base, error: "x", errorType: "server", retryable: true, statusCode: 500 },
  );
  assert.equal(out.retry, true);
  assert.equal(out.skip, true);
});

test("read-only timings keep notices and ignore everything else", async () => {
  const out = await runReadOnly(
    [
      handler("a", "onAgentSwitch", () => ({
        notice: "switched",
        message: "ignored",
        disableTools: ["*"],
      })),
    ],
    { ...base, previousAgent: "a", newAgent: "b", reason: "user" },
  );
  assert.deepEqual(out.notices, [{ source: "a", text: "switched" }]);
  assert.deepEqual(out.injections, []);
  assert.deepEqual(out.disableTools, []);
});

test("only Claude Code's hooks may end the turn, show beside a message or go before the prompt", async () => {
  const claims = () => ({
    message: "context",
    role: "user" as const,
    shown: "for the user",
    stopTurn: "stop here",
    beforePrompt: true,
  });
  const plugin = await runAfterTool([handler("plugin", "afterToolExecution", claims)], {
    ...base,
    tool: { name: "Bash", result: "ok", error: "", duration: 1 },
  });
  assert.equal(plugin.stopTurn, undefined);
  assert.deepEqual(plugin.notices, []);
  assert.deepEqual(plugin.injections, [
    { source: "plugin", role: "user", content: "context", eject: false },
  ]);

  const hook = { ...handler("hooks.json:SessionStart", "beforeChat", claims), claudeHook: true };
  const claude = await runBeforeChat([hook], base);
  assert.deepEqual(claude.notices, [{ source: "hooks.json:SessionStart", text: "for the user" }]);
  assert.deepEqual(claude.injections, [
    {
      source: "hooks.json:SessionStart",
      role: "user",
      content: "context",
      eject: false,
      beforePrompt: true,
    },
  ]);
});
