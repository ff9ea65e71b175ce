/**
 * A process that used isolated-vm ends cleanly even when V8 is marking as it exits
 * (collect-at-exit.ts). The flags keep V8 marking nearly all the time, and only allocation moves
 * the marking on: without the collection at 'exit', every child aborts in isolated-vm's teardown
 * (exit code 134), where CI saw it once in a while after an example plugin's last test.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const setup = pathToFileURL(path.join(import.meta.dirname, "isolated-vm-setup.ts")).href;

// isolated-vm objects that die at several ages, and one isolate used and disposed.
const CHILD = `
import { loadIsolatedVm } from ${JSON.stringify(setup)};
const ivm = await loadIsolatedVm();
const iso = new ivm.Isolate({ memoryLimit: 16 });
iso.createContextSync();
let keep = [];
for (let i = 0; i < 20000; i++) {
  const copy = new ivm.ExternalCopy({ i, s: "x".repeat(50) });
  if (i % 100 === 0) keep.push(copy);
  new Array(50).fill(i);
}
keep = null;
iso.dispose();
`;

function runChild(file: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--no-node-snapshot", "--stress-incremental-marking", "--no-incremental-marking-task", file],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

test("a process that used isolated-vm exits cleanly while V8 is marking", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "islet-exit-"));
  try {
    const file = path.join(dir, "child.mjs");
    writeFileSync(file, CHILD);
    const runs = await Promise.all([runChild(file), runChild(file)]);
    for (const run of runs) assert.deepEqual(run, { code: 0, stderr: "" }, run.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
