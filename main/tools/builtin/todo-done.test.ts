import assert from "node:assert/strict";
import { test } from "node:test";
import { executeToolCall } from "../executor.ts";
import { tempWorkspace } from "../test-support.ts";
import { doneTool } from "./done.ts";
import { todoWriteTool } from "./todo.ts";

test("TodoWrite replaces the session's list and summarises it", async () => {
  const ws = await tempWorkspace();
  try {
    const todos = [
      { content: "Read the code", status: "completed" },
      { content: "Fix the bug", status: "in_progress" },
      { content: "Run tests", status: "pending" },
    ];
    const result = await executeToolCall(todoWriteTool, { todos }, ws.ctx);
    assert.equal(result.error, false);
    assert.equal(
      result.output,
      "Todo list updated: 3 items (1 completed, 1 in progress, 1 pending)\n[x] Read the code\n[~] Fix the bug\n[ ] Run tests",
    );
    assert.deepEqual(ws.ctx.state.todos, todos);
    await executeToolCall(
      todoWriteTool,
      { todos: [{ content: "Only", status: "pending" }] },
      ws.ctx,
    );
    assert.deepEqual(ws.ctx.state.todos, [{ content: "Only", status: "pending" }]);
    const cleared = await executeToolCall(todoWriteTool, { todos: [] }, ws.ctx);
    assert.equal(cleared.output, "Todo list cleared.");
    const bad = await executeToolCall(
      todoWriteTool,
      { todos: [{ content: "x", status: "doing" }] },
      ws.ctx,
    );
    assert.equal(bad.error, true);
    assert.match(
      bad.output,
      /"todos\.0\.status": expected one of "pending", "in_progress", "completed", got "doing"/,
    );
    assert.deepEqual(ws.ctx.state.todos, [], "an invalid call leaves the list alone");
  } finally {
    await ws.cleanup();
  }
});

test("Done marks the session done with its summary", async () => {
  const ws = await tempWorkspace();
  try {
    assert.equal(ws.ctx.state.done, null);
    const result = await executeToolCall(doneTool, { summary: "Fixed it" }, ws.ctx);
    assert.deepEqual([result.error, result.output], [false, "Task marked as done."]);
    assert.deepEqual(ws.ctx.state.done, { summary: "Fixed it" });
  } finally {
    await ws.cleanup();
  }
});
