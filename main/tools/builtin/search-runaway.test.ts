/**
 * Patterns that backtrack for minutes (ENGINEERING §9): JavaScript's RegExp, and the regular
 * expressions glob patterns become, run on the thread that calls them. Grep and Glob must stay
 * within their time limit, stop at once on abort, and never block the engine's event loop.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { executeToolCall } from "../executor.ts";
import { tempWorkspace } from "../test-support.ts";
import type { Tool } from "../types.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";

const CATASTROPHIC = "^(a+)+$";
const VICTIM_LINE = `${"a".repeat(34)}!`;
// A glob that minimatch turns into a regex with nested lazy stars: minutes on a 40-letter name.
const CATASTROPHIC_GLOB = `${"*a".repeat(12)}*b`;
const VICTIM_NAME = "a".repeat(40);

/** Runs a tool call while counting event-loop ticks (every 20 ms when the loop is free). */
async function timed(
  tool: Tool,
  args: Record<string, unknown>,
  ctx: Parameters<typeof executeToolCall>[2],
) {
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 20);
  const started = performance.now();
  try {
    const result = await executeToolCall(tool, args, ctx);
    return { result, elapsed: performance.now() - started, ticks };
  } finally {
    clearInterval(ticker);
  }
}

test("Grep with a catastrophic pattern times out within its limit; the event loop keeps ticking", async () => {
  const ws = await tempWorkspace();
  try {
    await ws.file("victim.txt", `${VICTIM_LINE}\n`);
    const { result, elapsed, ticks } = await timed(
      grepTool,
      { pattern: CATASTROPHIC, output_mode: "content" },
      { ...ws.ctx, timeoutMs: 1_500 },
    );
    assert.equal(result.error, true, result.output);
    assert.equal(result.output, "Grep timed out after 1500 ms");
    assert.ok(elapsed < 1_500 + 4_000, `took ${Math.round(elapsed)} ms`);
    // Free: ~75 ticks in 1.5 s. Blocked: none until the search ends.
    assert.ok(ticks >= 15, `only ${ticks} ticks while searching`);
    // The next search is ordinary again.
    const next = await executeToolCall(grepTool, { pattern: "a!$" }, ws.ctx);
    assert.deepEqual([next.error, next.output], [false, "victim.txt"]);
  } finally {
    await ws.cleanup();
  }
});

test("Grep stops promptly when the turn is aborted (Ctrl-C)", async () => {
  const ws = await tempWorkspace();
  try {
    await ws.file("victim.txt", `${VICTIM_LINE}\n`);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const { result, elapsed, ticks } = await timed(
      grepTool,
      { pattern: CATASTROPHIC },
      { ...ws.ctx, signal: stop.signal, timeoutMs: 60_000 },
    );
    assert.deepEqual([result.error, result.output], [true, "Grep was aborted"]);
    assert.ok(elapsed < 300 + 3_000, `took ${Math.round(elapsed)} ms`);
    assert.ok(ticks >= 5, `only ${ticks} ticks while searching`);
  } finally {
    await ws.cleanup();
  }
});

test("Glob and Grep's glob filter with a catastrophic glob time out without blocking", async () => {
  const ws = await tempWorkspace();
  try {
    await ws.file(VICTIM_NAME, "x\n");
    for (const [tool, args] of [
      [globTool, { pattern: CATASTROPHIC_GLOB }],
      [grepTool, { pattern: "x", glob: CATASTROPHIC_GLOB }],
    ] as const) {
      const { result, elapsed, ticks } = await timed(tool, args, { ...ws.ctx, timeoutMs: 1_500 });
      assert.equal(result.output, `${tool.name} timed out after 1500 ms`);
      assert.ok(elapsed < 1_500 + 4_000, `${tool.name} took ${Math.round(elapsed)} ms`);
      assert.ok(ticks >= 15, `${tool.name}: only ${ticks} ticks while searching`);
    }
  } finally {
    await ws.cleanup();
  }
});

test("parallel searches: one runaway does not hold up an ordinary one", async () => {
  const ws = await tempWorkspace();
  try {
    await ws.file("victim.txt", `${VICTIM_LINE}\n`);
    await ws.file("notes.md", "TODO: write\n");
    const runaway = executeToolCall(
      grepTool,
      { pattern: CATASTROPHIC },
      {
        ...ws.ctx,
        timeoutMs: 8_000,
      },
    );
    const started = performance.now();
    const ordinary = await executeToolCall(grepTool, { pattern: "TODO" }, ws.ctx);
    assert.deepEqual([ordinary.error, ordinary.output], [false, "notes.md"]);
    assert.ok(performance.now() - started < 4_000);
    assert.equal((await runaway).output, "Grep timed out after 8000 ms");
  } finally {
    await ws.cleanup();
  }
});
