import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { z } from "zod";
import { defineTool } from "./define.ts";
import { executeToolCall, runToolCalls, unknownToolResult } from "./executor.ts";
import { tempWorkspace } from "./test-support.ts";
import type { Tool, ToolContext } from "./types.ts";

const echo = defineTool({
  name: "Echo",
  description: "Echoes",
  args: { text: z.string() },
  parallel: true,
  async execute(args) {
    return args.text;
  },
});

function failing(error: unknown): Tool {
  return defineTool({
    name: "Fail",
    description: "Throws",
    args: {},
    parallel: true,
    async execute() {
      throw error;
    },
  });
}

test("valid call returns the output with a duration", async () => {
  const ws = await tempWorkspace();
  try {
    const result = await executeToolCall(echo, { text: "hi" }, ws.ctx);
    assert.equal(result.output, "hi");
    assert.equal(result.error, false);
    assert.ok(result.durationMs >= 0);
  } finally {
    await ws.cleanup();
  }
});

test("invalid arguments are an error naming the field, and the tool does not run", async () => {
  const ws = await tempWorkspace();
  let ran = false;
  const spy = defineTool({
    name: "Spy",
    description: "",
    args: { n: z.number() },
    parallel: true,
    async execute() {
      ran = true;
      return "";
    },
  });
  try {
    const wrong = await executeToolCall(spy, { n: "1" }, ws.ctx);
    assert.deepEqual(
      [wrong.error, wrong.output],
      [true, 'Invalid arguments for Spy: "n": expected number, got string'],
    );
    const unknown = await executeToolCall(spy, { n: 1, m: 2 }, ws.ctx);
    assert.equal(unknown.output, 'Invalid arguments for Spy: unknown field: "m"');
    const missing = await executeToolCall(spy, {}, ws.ctx);
    assert.equal(missing.output, 'Invalid arguments for Spy: "n" is required');
    assert.equal(ran, false);
  } finally {
    await ws.cleanup();
  }
});

test("every kind of exception becomes an error result", async () => {
  const ws = await tempWorkspace();
  try {
    for (const [thrown, expected] of [
      [new Error("boom"), "boom"],
      ["plain string", "plain string"],
      [{ weird: true }, '{"weird":true}'],
      [new TypeError("bad type"), "bad type"],
    ] as const) {
      const result = await executeToolCall(failing(thrown), {}, ws.ctx);
      assert.deepEqual([result.error, result.output], [true, expected]);
    }
    const syncThrow: Tool = {
      ...echo,
      execute: () => {
        throw new Error("sync");
      },
    };
    assert.equal((await executeToolCall(syncThrow, { text: "x" }, ws.ctx)).output, "sync");
    const badValidate: Tool = {
      ...echo,
      validate: () => {
        throw new Error("validator crashed");
      },
    };
    assert.match((await executeToolCall(badValidate, {}, ws.ctx)).output, /validator crashed/);
    const badPaths: Tool = {
      ...echo,
      paths: () => {
        throw new Error("paths crashed");
      },
    };
    assert.equal((await executeToolCall(badPaths, { text: "x" }, ws.ctx)).output, "paths crashed");
    const notString: Tool = { ...echo, execute: async () => ({ a: 1 }) as unknown as string };
    assert.equal((await executeToolCall(notString, { text: "x" }, ws.ctx)).output, '{"a":1}');
  } finally {
    await ws.cleanup();
  }
});

test("output above the limit is truncated", async () => {
  const ws = await tempWorkspace();
  try {
    const text = "a".repeat(100) + "b".repeat(1000) + "c".repeat(100);
    const result = await executeToolCall(echo, { text }, ws.ctx, { maxOutputChars: 200 });
    assert.equal(
      result.output,
      `${"a".repeat(100)}\n[… 1000 chars truncated …]\n${"c".repeat(100)}`,
    );
    const long = await executeToolCall(failing(new Error("e".repeat(500))), {}, ws.ctx, {
      maxOutputChars: 100,
    });
    assert.match(long.output, /\[… 400 chars truncated …\]/);
  } finally {
    await ws.cleanup();
  }
});

/** Never settles by itself; only stops if it honours the signal. */
function hanging(honoursSignal: boolean): Tool {
  return defineTool({
    name: "Hang",
    description: "",
    args: {},
    parallel: true,
    execute: (_args, ctx) =>
      new Promise<string>((_resolve, reject) => {
        if (honoursSignal)
          ctx.signal.addEventListener("abort", () =>
            reject(new Error("stopped: " + String(ctx.signal.reason?.name))),
          );
      }),
  });
}

test("a call past its timeout is stopped: the tool sees the signal, a stuck tool is abandoned", async () => {
  const ws = await tempWorkspace();
  try {
    const ctx: ToolContext = { ...ws.ctx, timeoutMs: 50 };
    const polite = await executeToolCall(hanging(true), {}, ctx);
    assert.deepEqual([polite.error, polite.output], [true, "stopped: TimeoutError"]);
    const started = Date.now();
    const stuck = await executeToolCall(hanging(false), {}, ctx, { abortGraceMs: 50 });
    assert.deepEqual([stuck.error, stuck.output], [true, "Hang timed out after 50 ms"]);
    assert.ok(Date.now() - started < 2000);
  } finally {
    await ws.cleanup();
  }
});

test("a tool's own timeout replaces the default", async () => {
  const ws = await tempWorkspace();
  try {
    const quick: Tool = { ...hanging(false), timeoutMs: () => 30 };
    const result = await executeToolCall(quick, {}, ws.ctx, { abortGraceMs: 10 });
    assert.equal(result.output, "Hang timed out after 30 ms");
  } finally {
    await ws.cleanup();
  }
});

test("the caller's abort signal stops the call; an already aborted signal runs nothing", async () => {
  const ws = await tempWorkspace();
  try {
    const controller = new AbortController();
    const ctx: ToolContext = { ...ws.ctx, signal: controller.signal };
    setTimeout(() => controller.abort(), 20);
    const stuck = await executeToolCall(hanging(false), {}, ctx, { abortGraceMs: 10 });
    assert.deepEqual([stuck.error, stuck.output], [true, "Hang was aborted"]);
    const again = await executeToolCall(echo, { text: "x" }, ctx);
    assert.deepEqual([again.error, again.output], [true, "Echo was not run: aborted"]);
  } finally {
    await ws.cleanup();
  }
});

test("unknownToolResult lists what exists", () => {
  assert.deepEqual(unknownToolResult("Nope", ["Read", "Write"]), {
    output: 'Unknown tool "Nope". Available tools: Read, Write.',
    error: true,
    durationMs: 0,
  });
});

test("runToolCalls: parallel calls overlap, others run alone, results keep call order", async () => {
  const calls = [
    { id: "r1", parallel: true, ms: 60 },
    { id: "r2", parallel: true, ms: 20 },
    { id: "r3", parallel: true, ms: 40 },
    { id: "w1", parallel: false, ms: 30 },
    { id: "w2", parallel: false, ms: 30 },
    { id: "r4", parallel: true, ms: 10 },
    { id: "r5", parallel: true, ms: 10 },
  ];
  const spans = new Map<string, { start: number; end: number }>();
  let running = 0;
  let maxRunning = 0;
  const results = await runToolCalls(
    calls,
    async (call, index) => {
      const start = performance.now();
      running++;
      maxRunning = Math.max(maxRunning, running);
      await sleep(call.ms);
      running--;
      spans.set(call.id, { start, end: performance.now() });
      return `${index}:${call.id}`;
    },
    (call) => call.parallel,
  );
  assert.deepEqual(results, ["0:r1", "1:r2", "2:r3", "3:w1", "4:w2", "5:r4", "6:r5"]);
  const span = (id: string) => spans.get(id) as { start: number; end: number };
  const overlaps = (a: string, b: string) =>
    span(a).start < span(b).end && span(b).start < span(a).end;
  assert.ok(
    overlaps("r1", "r2") && overlaps("r1", "r3") && overlaps("r4", "r5"),
    "parallel calls overlap",
  );
  assert.equal(maxRunning, 3);
  for (const other of ["r1", "r2", "r3", "w2", "r4", "r5"])
    assert.ok(!overlaps("w1", other), `w1 alone vs ${other}`);
  for (const other of ["r1", "r2", "r3", "w1", "r4", "r5"])
    assert.ok(!overlaps("w2", other), `w2 alone vs ${other}`);
  assert.ok(span("w1").start >= span("r1").end, "a write waits for the reads before it");
});

test("runToolCalls with real tools through executeToolCall", async () => {
  const ws = await tempWorkspace();
  try {
    const results = await runToolCalls(
      [
        { tool: echo, args: { text: "a" } },
        { tool: echo, args: { text: 1 } },
        { tool: echo, args: { text: "c" } },
      ],
      (call) => executeToolCall(call.tool, call.args, ws.ctx),
      (call) => call.tool.parallel,
    );
    assert.deepEqual(
      results.map((r) => [r.output, r.error]),
      [
        ["a", false],
        ['Invalid arguments for Echo: "text": expected string, got number', true],
        ["c", false],
      ],
    );
    assert.deepEqual(
      await runToolCalls(
        [],
        async () => 1,
        () => true,
      ),
      [],
    );
  } finally {
    await ws.cleanup();
  }
});
