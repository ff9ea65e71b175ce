import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { executeToolCall } from "../executor.ts";
import { tempWorkspace } from "../test-support.ts";
import type { ToolContext } from "../types.ts";
import { bashTool } from "./bash.ts";

const posix = process.platform !== "win32";

/** Alive and not a zombie (in a container nobody may reap re-parented children). */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return !/^\d+ \(.*\) Z/.test(stat);
}

async function waitForPids(file: string, count: number): Promise<number[]> {
  for (let i = 0; i < 200; i++) {
    const pids = (await fs.readFile(file, "utf8").catch(() => ""))
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    if (pids.length >= count) return pids;
    await sleep(20);
  }
  throw new Error("the command never wrote its pids");
}

test("Bash runs in the workdir and returns combined output with the exit code", async () => {
  const ws = await tempWorkspace();
  try {
    const result = await executeToolCall(
      bashTool,
      { command: "pwd; echo out; echo err >&2" },
      ws.ctx,
    );
    assert.equal(result.error, false, result.output);
    assert.equal(result.output, `${ws.dir}\nout\nerr\n[exit code 0]`);
    const quiet = await executeToolCall(bashTool, { command: "true" }, ws.ctx);
    assert.equal(quiet.output, "(no output)\n[exit code 0]");
  } finally {
    await ws.cleanup();
  }
});

test("Bash reports a non-zero exit code as an error with the output", async () => {
  const ws = await tempWorkspace();
  try {
    const result = await executeToolCall(bashTool, { command: "echo failing; exit 3" }, ws.ctx);
    assert.deepEqual([result.error, result.output], [true, "failing\n[exit code 3]"]);
    const missing = await executeToolCall(
      bashTool,
      { command: "definitely-not-a-command-xyz" },
      ws.ctx,
    );
    assert.equal(missing.error, true);
    assert.match(missing.output, /not found[\s\S]*\[exit code 127\]$/);
  } finally {
    await ws.cleanup();
  }
});

test("Bash has no stdin: a command reading it gets EOF instead of hanging", async () => {
  const ws = await tempWorkspace();
  try {
    const result = await executeToolCall(
      bashTool,
      { command: "cat; echo after", timeout_ms: 5000 },
      ws.ctx,
    );
    assert.deepEqual([result.error, result.output], [false, "after\n[exit code 0]"]);
  } finally {
    await ws.cleanup();
  }
});

test(
  "Bash does not wait for background jobs that keep the output pipe open",
  { skip: !posix },
  async () => {
    const ws = await tempWorkspace();
    try {
      const started = Date.now();
      const result = await executeToolCall(
        bashTool,
        { command: "sleep 30 & echo $! > bg.pid; echo started" },
        ws.ctx,
      );
      assert.equal(result.output, "started\n[exit code 0]");
      assert.ok(Date.now() - started < 5000);
      const [pid] = await waitForPids(path.join(ws.dir, "bg.pid"), 1);
      process.kill(pid, "SIGKILL");
    } finally {
      await ws.cleanup();
    }
  },
);

test(
  "Bash timeout kills the whole process tree and keeps the partial output",
  { skip: !posix },
  async () => {
    const ws = await tempWorkspace();
    try {
      const pidFile = path.join(ws.dir, "pids");
      const command = `echo partial; sleep 100 & echo $! >> ${pidFile}; sleep 100 & echo $! >> ${pidFile}; wait`;
      const started = Date.now();
      const result = await executeToolCall(bashTool, { command, timeout_ms: 500 }, ws.ctx);
      assert.ok(Date.now() - started < 5000, "returned promptly after the timeout");
      assert.deepEqual(
        [result.error, result.output],
        [true, "partial\n[Command timed out after 500 ms and was killed]"],
      );
      const pids = await waitForPids(pidFile, 2);
      for (let i = 0; i < 50 && (await Promise.all(pids.map(isAlive))).some(Boolean); i++)
        await sleep(20);
      for (const pid of pids)
        assert.equal(await isAlive(pid), false, `grandchild ${pid} was killed`);
    } finally {
      await ws.cleanup();
    }
  },
);

test("Bash escalates to SIGKILL for processes that ignore SIGTERM", { skip: !posix }, async () => {
  const ws = await tempWorkspace();
  try {
    const pidFile = path.join(ws.dir, "pids");
    const command = `bash -c 'trap "" TERM; echo $$ > ${pidFile}; while true; do sleep 0.05; done' & wait`;
    const result = await executeToolCall(bashTool, { command, timeout_ms: 300 }, ws.ctx);
    assert.equal(result.error, true);
    const [pid] = await waitForPids(pidFile, 1);
    for (let i = 0; i < 200 && (await isAlive(pid)); i++) await sleep(25);
    assert.equal(await isAlive(pid), false, "the SIGTERM-ignoring process was killed");
  } finally {
    await ws.cleanup();
  }
});

test(
  "Bash timeout: a tree that ignores SIGTERM is gone by the time the result is returned",
  { skip: !posix },
  async () => {
    const ws = await tempWorkspace();
    try {
      const pidFile = path.join(ws.dir, "pids");
      // The shell dies on SIGTERM; its child (an sh that exec'd into sleep) and that one's own
      // child ignore it.
      const command = `sh -c 'trap "" TERM; sleep 1000 & echo $! >> ${pidFile}; exec sleep 1000' & echo $! >> ${pidFile}; echo $$ >> ${pidFile}; wait`;
      const started = Date.now();
      const result = await executeToolCall(bashTool, { command, timeout_ms: 500 }, ws.ctx);
      assert.ok(Date.now() - started < 500 + 2_000 + 4_000, "returned after the kill grace");
      assert.equal(result.output, "(no output)\n[Command timed out after 500 ms and was killed]");
      const pids = await waitForPids(pidFile, 3);
      // No waiting here: the tool must not answer before the tree is gone.
      for (const pid of pids) assert.equal(await isAlive(pid), false, `${pid} outlived the call`);
    } finally {
      await ws.cleanup();
    }
  },
);

test("Bash stops when the call is aborted", { skip: !posix }, async () => {
  const ws = await tempWorkspace();
  try {
    const controller = new AbortController();
    const ctx: ToolContext = { ...ws.ctx, signal: controller.signal };
    const pidFile = path.join(ws.dir, "pids");
    const pending = executeToolCall(
      bashTool,
      { command: `sleep 100 & echo $! > ${pidFile}; wait` },
      ctx,
    );
    const [pid] = await waitForPids(pidFile, 1);
    controller.abort();
    const result = await pending;
    assert.deepEqual(
      [result.error, result.output],
      [true, "(no output)\n[Command was aborted and killed]"],
    );
    for (let i = 0; i < 50 && (await isAlive(pid)); i++) await sleep(20);
    assert.equal(await isAlive(pid), false);
  } finally {
    await ws.cleanup();
  }
});

test("Bash validates timeout_ms against the maximum", async () => {
  const ws = await tempWorkspace();
  try {
    const result = await executeToolCall(
      bashTool,
      { command: "true", timeout_ms: 10_000_000 },
      ws.ctx,
    );
    assert.equal(result.error, true);
    assert.match(result.output, /^Invalid arguments for Bash: "timeout_ms": /);
  } finally {
    await ws.cleanup();
  }
});

test("Bash keeps only the ends of a flood of output", async () => {
  const ws = await tempWorkspace();
  try {
    const result = await executeToolCall(
      bashTool,
      { command: "echo START; head -c 200000 /dev/zero | tr '\\0' x; echo; echo END" },
      ws.ctx,
    );
    assert.equal(result.error, false);
    assert.ok(result.output.startsWith("START\n"));
    assert.ok(result.output.endsWith("END\n[exit code 0]"));
    assert.match(result.output, /chars truncated/);
    assert.ok(result.output.length < 40_000);
  } finally {
    await ws.cleanup();
  }
});
