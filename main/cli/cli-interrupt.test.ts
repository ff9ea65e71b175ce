/** Ctrl-C and time limits reach tools that would otherwise hold the engine: real `islet` processes. */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { islet as runIslet, startIslet, tempDirs } from "./testing/islet.ts";

function runArgs(url: string, dirs: { home: string; workdir: string }, prompt: string): string[] {
  return [
    "run",
    "--json",
    "--provider",
    "openai-compatible",
    "--base-url",
    url,
    "--model",
    "m",
    "--yes",
    "--home",
    dirs.home,
    "--workdir",
    dirs.workdir,
    prompt,
  ];
}

test("Ctrl-C during a Grep with a catastrophic pattern stops the turn and islet exits", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOpenAI([
    { toolCalls: [{ name: "Grep", arguments: { pattern: "^(a+)+$", output_mode: "content" } }] },
    { text: ["done"] },
  ]);
  await writeFile(path.join(dirs.workdir, "victim.txt"), `${"a".repeat(34)}!\n`);
  const islet = startIslet(runArgs(server.url, dirs, "search"));
  try {
    await islet.waitFor(/"type":"tool_call"/);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the search is under way
    islet.child.kill("SIGINT");
    const code = await islet.exit(10_000);
    assert.notEqual(code, "still running", "islet ignored Ctrl-C during the search");
    assert.match(islet.output().stdout, /"type":"tool_result".*"name":"Grep"/);
  } finally {
    islet.child.kill("SIGKILL");
    await server.close();
    await dirs.clean();
  }
});

/** Alive and not a zombie (in a container PID 1 may never reap re-parented children). */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return !/^\d+ \(.*\) Z/.test(stat);
}

test(
  "islet tools Bash: a timed-out tree that ignores SIGTERM does not outlive the CLI",
  { skip: process.platform === "win32" },
  async () => {
    const dirs = await tempDirs();
    const pidFile = path.join(dirs.workdir, "pids");
    const command = `sh -c 'trap "" TERM; sleep 1000 & echo $! >> ${pidFile}; exec sleep 1000' & echo $! >> ${pidFile}; wait`;
    let pids: number[] = [];
    try {
      const ran = await runIslet([
        "tools",
        "--workdir",
        dirs.workdir,
        "--home",
        dirs.home,
        "Bash",
        `command=${command}`,
        "timeout_ms=500",
      ]);
      assert.equal(ran.code, 1, ran.stderr);
      assert.match(ran.stderr, /Command timed out after 500 ms and was killed/);
      pids = (await readFile(pidFile, "utf8")).split(/\s+/).filter(Boolean).map(Number);
      assert.equal(pids.length, 2);
      for (const pid of pids) assert.equal(await isAlive(pid), false, `${pid} outlived islet`);
    } finally {
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone, as it should be
        }
      }
      await dirs.clean();
    }
  },
);

test(
  "a second Ctrl-C during a Bash command exits at once, and the command's tree goes with islet",
  { skip: process.platform === "win32" },
  async () => {
    const dirs = await tempDirs();
    const pidFile = path.join(dirs.workdir, "pids");
    const command = `sh -c 'trap "" TERM; sleep 1000 & echo $! >> ${pidFile}; exec sleep 1000' & echo $! >> ${pidFile}; trap "" TERM; wait`;
    const server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", arguments: { command } }] },
      { text: ["done"] },
    ]);
    const islet = startIslet(runArgs(server.url, dirs, "run it"));
    let pids: number[] = [];
    try {
      await islet.waitFor(/"type":"tool_call"/);
      for (let i = 0; i < 200 && pids.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        pids = (await readFile(pidFile, "utf8").catch(() => ""))
          .split(/\s+/)
          .filter(Boolean)
          .map(Number);
      }
      assert.equal(pids.length, 2, "the command started");
      islet.child.kill("SIGINT");
      await new Promise((resolve) => setTimeout(resolve, 200));
      islet.child.kill("SIGINT");
      assert.equal(await islet.exit(10_000), 130);
      for (const pid of pids) assert.equal(await isAlive(pid), false, `${pid} outlived islet`);
    } finally {
      islet.child.kill("SIGKILL");
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone, as it should be
        }
      }
      await server.close();
      await dirs.clean();
    }
  },
);
