/** `islet serve` as a user runs it: a real process, its printed URL, and Ctrl-C. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
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
  assert.equal(
    port.stderr,
    'islet: --port: expected a port number from 0 to 65535, got "http"; see `islet serve --help`\n',
  );
  const runtime = await islet(["serve", "--plugin-runtime", "v8"]);
  assert.equal(runtime.code, 2);
  assert.match(runtime.stderr, /--plugin-runtime: expected isolated-vm or quickjs, got "v8"/);
});

test("islet serve --open hands the token URL to $BROWSER, and a start with no model says what to do", async () => {
  const dirs = await tempDirs();
  const opened = join(dirs.root, "opened.txt");
  const browser = join(dirs.root, "browser.sh");
  await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$@" > '${opened}'\n`, { mode: 0o755 });
  const child = spawn(
    process.execPath,
    [
      "--no-node-snapshot",
      "--",
      BIN,
      "serve",
      "--open",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
    ],
    // Providers' default ports are probed: nothing answers on them in a test.
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, BROWSER: `${browser} --new-window` },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  try {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !(/No model yet/.test(stderr) && /serving on/.test(stdout)))
      await sleep(50);
    const url = /Islet is serving on (\S+)\n/.exec(stdout)?.[1];
    assert.ok(url, stdout + stderr);
    assert.match(stderr, /No model yet: .*choose Download in the chat/);
    while (Date.now() < deadline && (await readFile(opened, "utf8").catch(() => "")) === "")
      await sleep(50);
    assert.equal(await readFile(opened, "utf8"), `--new-window\n${url}\n`);
  } finally {
    child.kill("SIGKILL");
    await dirs.clean();
  }
});
