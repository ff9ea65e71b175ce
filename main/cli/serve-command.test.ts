/** `islet serve` as a user runs it: a real process, its printed URL, and Ctrl-C. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";
import { BIN, islet, tempDirs } from "./testing/islet.ts";

test("islet serve prints its token URL and the sandbox choice, serves the UI, and stops on SIGINT", async () => {
  const dirs = await tempDirs();
  const child = spawn(
    process.execPath,
    [
      "--no-node-snapshot",
      BIN,
      "serve",
      "--port",
      "0",
      "--plugin-runtime",
      "quickjs",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  try {
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (c: Buffer) => {
        stdout += c.toString();
        const m = /Islet is serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,})\n/.exec(
          stdout,
        );
        if (m) resolve(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
    });
    assert.match(stderr, /plugins on quickjs \(chosen by --plugin-runtime\)/);
    const page = await fetch(url);
    assert.equal(page.status, 200, "the UI is built (`npm run build`) and served with the token");
    assert.match(await page.text(), /<div id="root">/);
    assert.equal((await fetch(url.replace(/\?.*/, ""))).status, 401);
    child.kill("SIGINT");
    const [code] = (await once(child, "exit")) as [number | null];
    assert.equal(code, 0);
  } finally {
    child.kill("SIGKILL");
    await dirs.clean();
  }
});

test("islet serve refuses bad flags with one line and exit code 2", async () => {
  const port = await islet(["serve", "--port", "http"]);
  assert.equal(port.code, 2);
  assert.equal(port.stderr, 'islet: --port: expected a port number from 0 to 65535, got "http"\n');
  const runtime = await islet(["serve", "--plugin-runtime", "v8"]);
  assert.equal(runtime.code, 2);
  assert.match(runtime.stderr, /--plugin-runtime: expected isolated-vm or quickjs, got "v8"/);
});
