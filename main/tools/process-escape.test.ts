/**
 * Processes that leave their process group (setsid, a double fork, setpgid) are still stopped
 * with the command that started them: Bash on its timeout or when aborted, and hook commands.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { runHookCommand } from "../extensions/shell-hooks/run-command.ts";
import { bashTool } from "./builtin/bash.ts";
import { executeToolCall } from "./executor.ts";
import { tempWorkspace } from "./test-support.ts";
import type { ToolContext } from "./types.ts";

const linux = process.platform === "linux";
const hasPython = spawnSync("python3", ["-c", "pass"]).status === 0;

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

async function pidsIn(file: string, count: number): Promise<number[]> {
  for (let i = 0; i < 250; i++) {
    const pids = (await fs.readFile(file, "utf8").catch(() => ""))
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    if (pids.length >= count) return pids;
    await sleep(20);
  }
  throw new Error(`the command never wrote ${count} pids to ${file}`);
}

/**
 * A command that leaves behind, each writing its pids to `dir/pids` (3 lines per escapee):
 * a setsid'd shell, a nohup'd double fork, and a process that moves to a group of its own.
 */
function escapees(dir: string): { command: string; count: number } {
  const pids = path.join(dir, "pids");
  // Each escapee: a shell with a sleep child; `wait`, then a marker file if it ever got there.
  const body = (name: string) =>
    `sleep 300 & echo $! >> ${pids}; echo $$ >> ${pids}; wait; touch ${path.join(dir, name)}`;
  const parts = [
    `setsid sh -c '${body("setsid")}' >/dev/null 2>&1 &`,
    `( nohup sh -c '${body("double")}' >/dev/null 2>&1 & ) &`,
  ];
  let count = 4;
  if (hasPython) {
    const py = `import os, time; os.setpgid(0, 0); open("${pids}", "a").write(str(os.getpid()) + "\\n"); time.sleep(300)`;
    parts.push(`python3 -c '${py}' >/dev/null 2>&1 &`);
    count += 1;
  }
  return { command: `${parts.join(" ")} sleep 100`, count };
}

async function allGone(pids: number[]): Promise<void> {
  // The stop resolves once the tree is gone; a short grace for a reaper that is slow.
  for (let i = 0; i < 40 && (await Promise.all(pids.map(isAlive))).some(Boolean); i++)
    await sleep(25);
  for (const pid of pids) assert.equal(await isAlive(pid), false, `${pid} outlived the stop`);
}

test(
  "Bash timeout stops setsid, double-forked and regrouped descendants",
  { skip: !linux },
  async () => {
    const ws = await tempWorkspace();
    try {
      const { command, count } = escapees(ws.dir);
      const result = await executeToolCall(bashTool, { command, timeout_ms: 1_500 }, ws.ctx);
      assert.equal(result.error, true);
      assert.match(result.output, /timed out after 1500 ms/);
      await allGone(await pidsIn(path.join(ws.dir, "pids"), count));
    } finally {
      await ws.cleanup();
    }
  },
);

test(
  "an aborted Bash call stops descendants that left its process group",
  { skip: !linux },
  async () => {
    const ws = await tempWorkspace();
    try {
      const controller = new AbortController();
      const ctx: ToolContext = { ...ws.ctx, signal: controller.signal };
      const { command, count } = escapees(ws.dir);
      const pending = executeToolCall(bashTool, { command }, ctx);
      const pids = await pidsIn(path.join(ws.dir, "pids"), count);
      controller.abort();
      assert.equal((await pending).error, true);
      await allGone(pids);
    } finally {
      await ws.cleanup();
    }
  },
);

test(
  "a hook command on its time limit stops descendants that left its group",
  { skip: !linux },
  async () => {
    const ws = await tempWorkspace();
    try {
      const { command, count } = escapees(ws.dir);
      const run = await runHookCommand({
        command,
        stdin: "{}",
        cwd: ws.dir,
        env: { PATH: process.env.PATH },
        timeoutMs: 1_500,
      });
      assert.equal(run.timedOut, true);
      await allGone(await pidsIn(path.join(ws.dir, "pids"), count));
    } finally {
      await ws.cleanup();
    }
  },
);
