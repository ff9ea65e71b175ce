// The newcomer's path: an older Node gets one line, `islet` goes on PATH with `npm link`, and a
// missing or stale build is noticed (npm start and npm test build it first).
import { strict as assert } from "node:assert";
import { execFile, execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { staleBecause } from "./build-if-stale.ts";
import { nodeTooOld } from "./check-node.js";

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "islet.js");

test("an older Node is told, in one line, which Node is needed and how to get it", () => {
  assert.equal(nodeTooOld("24.0.0"), null);
  assert.equal(nodeTooOld("25.1.0"), null);
  const line = nodeTooOld("20.19.2", "/usr/bin/node");
  assert.ok(line);
  assert.equal(line.split("\n").length, 1);
  assert.match(
    line,
    /Node\.js 24 or newer is needed, and this is Node 20\.19\.2 \(\/usr\/bin\/node\)/,
  );
  assert.match(line, /npm install --prefix ~\/\.cache\/islet-node24 node@24/);
});

/** A Node older than 24 on this machine (Debian's, here), to run the real files with. */
function olderNode(): string | null {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    try {
      const version = execFileSync(candidate, ["-p", "process.versions.node"], {
        encoding: "utf8",
      });
      if (Number(version.split(".")[0]) < 24) return candidate;
    } catch {
      // not there
    }
  }
  return null;
}

const older = olderNode();
test(
  "bin/islet.js and npm's preinstall check refuse an older Node with that line, not a stack trace",
  { skip: older === null ? "no Node older than 24 on this machine" : false },
  async () => {
    for (const script of [BIN, join(ROOT, "scripts", "check-node.js")]) {
      const failed = await run(older!, [script, "run", "hi"]).catch((e: unknown) => e);
      const { code, stdout, stderr } = failed as { code: number; stdout: string; stderr: string };
      assert.equal(code, 1, script);
      assert.equal(stdout, "");
      assert.equal(stderr.trim().split("\n").length, 1, stderr);
      assert.match(stderr, /^islet: Node\.js 24 or newer is needed/);
    }
  },
);

test("`npm link` puts a working islet on PATH, usable from any folder", async () => {
  const prefix = await mkdtemp(join(tmpdir(), "islet-link-"));
  try {
    await run("npm", ["link", "--no-audit", "--no-fund", "--ignore-scripts"], {
      cwd: ROOT,
      env: { ...process.env, NPM_CONFIG_PREFIX: prefix },
    });
    const islet = join(prefix, "bin", "islet");
    const env = { ...process.env, PATH: `${join(prefix, "bin")}:${process.env["PATH"]}` };
    const version = await run("islet", ["--version"], { cwd: tmpdir(), env });
    assert.match(version.stdout, /^islet \d+\.\d+\.\d+\n$/);
    const help = await run(islet, ["tools", "--help"], { cwd: tmpdir(), env });
    assert.match(help.stdout, /^Usage:\n {2}islet tools/);
    // Through the shebang, the command's own --env-file is islet's, not Node's (exit 9).
    const envFile = await run(islet, ["run", "--env-file", "/nonexistent/keys.env", "hi"], {
      cwd: tmpdir(),
      env,
    }).then(
      () => ({ code: 0, stderr: "" }),
      (e: unknown) => e as { code: number; stderr: string },
    );
    assert.equal(envFile.code, 2);
    assert.match(envFile.stderr, /^islet: --env-file \/nonexistent\/keys\.env: no such file/);
  } finally {
    await rm(prefix, { recursive: true, force: true });
  }
});

test("the build is stale when an output is missing or a source is newer; a test is not a source", async () => {
  const root = await mkdtemp(join(tmpdir(), "islet-build-"));
  const at = (file: string) => join(root, file);
  const write = async (file: string, seconds: number) => {
    await mkdir(dirname(at(file)), { recursive: true });
    await writeFile(at(file), "x");
    await utimes(at(file), seconds, seconds);
  };
  try {
    await write("main/engine/engine.ts", 1000);
    await write("renderer/src/App.tsx", 1000);
    await write("out/main/index.js", 2000);
    await write("out/preload/index.cjs", 2000);
    assert.equal(staleBecause(root), "out/renderer/index.html is missing");
    await write("out/renderer/index.html", 2000);
    assert.equal(staleBecause(root), null);
    await write("main/engine/engine.test.ts", 3000);
    assert.equal(staleBecause(root), null, "tests are not built");
    await write("renderer/src/App.tsx", 3000);
    assert.equal(staleBecause(root), "sources changed since the last build");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
