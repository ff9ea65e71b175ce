import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { createHostCapabilities } from "./index.ts";
import type { ExecResult } from "./exec.ts";

const node = process.execPath;

// A killed process may linger as a zombie until reaped: that counts as dead.
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

async function waitUntilDead(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until;) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !alive(pid);
}

describe("exec capability", () => {
  let base: string;
  let workdir: string;
  const capabilities = (unsafe: boolean, limits = {}) =>
    createHostCapabilities({
      plugin: "runner",
      pluginDir: path.join(base, "plugin"),
      dataDir: path.join(base, "home", "plugin-data", "runner"),
      workdir,
      protected: { globalHome: path.join(base, "home"), pluginDirs: [], secretFiles: [] },
      env: { PLUGIN_VAR: "visible" },
      exec: unsafe,
      permissions: { exec: { reason: "runs tools" } },
      log: () => {},
      limits: { exec: limits },
    });

  before(() => {
    base = mkdtempSync(path.join(os.tmpdir(), "islet-exec-"));
    workdir = path.join(base, "work");
    mkdirSync(path.join(workdir, "sub"), { recursive: true });
    mkdirSync(path.join(base, "plugin"));
    process.env.ISLET_TEST_SECRET = "hidden";
  });
  after(() => {
    delete process.env.ISLET_TEST_SECRET;
    rmSync(base, { recursive: true, force: true });
  });

  test("exists only in unsafe mode", async () => {
    const safe = capabilities(false);
    assert.equal(safe.exec, false);
    await assert.rejects(safe.call("exec", [[node, "-v"]]), /exec needs unsafe mode/);
  });

  test("runs an argv without a shell, in the workspace, with stdin, and a filtered env", async () => {
    const result = (await capabilities(true).call("exec", [
      [
        node,
        "-e",
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{console.log(JSON.stringify([process.argv[1],process.cwd(),s,process.env.PLUGIN_VAR,process.env.ISLET_TEST_SECRET??null]));console.error('warn');process.exit(3)})",
        "$(whoami)",
      ],
      { cwd: "sub", stdin: "input" },
    ])) as ExecResult;
    assert.equal(result.code, 3);
    assert.equal(result.stderr.trim(), "warn");
    const [arg, cwd, stdin, pluginVar, secret] = JSON.parse(result.stdout) as string[];
    assert.equal(arg, "$(whoami)", "no shell expansion");
    assert.equal(cwd, path.join(workdir, "sub"));
    assert.deepEqual([stdin, pluginVar, secret], ["input", "visible", null]);
  });

  test("the working directory must be inside the allowed roots", async () => {
    await assert.rejects(
      capabilities(true).call("exec", [[node, "-v"], { cwd: "/" }]),
      /plugin runner cannot read \/: it is outside/,
    );
    await assert.rejects(
      capabilities(true).call("exec", [[node, "-v"], { cwd: "nope" }]),
      /working directory nope does not exist/,
    );
    await assert.rejects(
      capabilities(true).call("exec", [["definitely-not-a-program-xyz"]]),
      /program not found: definitely-not-a-program-xyz/,
    );
    await assert.rejects(capabilities(true).call("exec", [[]]), /exec needs a program/);
  });

  test("output is capped", async () => {
    const result = (await capabilities(true, { maxOutputBytes: 100 }).call("exec", [
      [node, "-e", "process.stdout.write('y'.repeat(5000))"],
    ])) as ExecResult;
    assert.match(result.stdout, /^y{100}\n… \[4900 more bytes of output dropped\]$/);
  });

  test("a timeout kills the whole process tree", async () => {
    const pidFile = path.join(workdir, "grandchild.pid");
    const script = `const c = require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000);`;
    const started = Date.now();
    await assert.rejects(
      capabilities(true).call("exec", [[node, "-e", script], { timeoutMs: 500 }]),
      /timed out after 500 ms and was killed/,
    );
    assert.ok(Date.now() - started < 3_000);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    assert.equal(
      await waitUntilDead(grandchild, 2_000),
      true,
      "the grandchild died with its parent",
    );
  });

  test("aborting (the plugin was unloaded) kills the program", async () => {
    const controller = new AbortController();
    const pending = capabilities(true).call(
      "exec",
      [[node, "-e", "setInterval(() => {}, 1000)"]],
      controller.signal,
    );
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(pending, /was killed because the plugin was unloaded/);
  });
});
