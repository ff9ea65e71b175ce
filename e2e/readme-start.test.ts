/**
 * The README's "Set up and start", as a newcomer follows it where there is no Electron binary:
 * `npm start` builds when needed and serves the app with `islet serve --open`, which hands the
 * token URL to the browser ($BROWSER here records it); that page answers a prompt from a loopback
 * model in Chromium.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";
import { startFakeOpenAI } from "../main/providers/testing/index.ts";
import { CHROMIUM_ARGS, expectText, ROOT } from "./support/browser.ts";
import { watchedPage } from "./support/page.ts";
import { findElectron, serveOnly, target } from "./support/target.ts";

const skip =
  "path" in findElectron()
    ? "there is an Electron binary here, so npm start opens the desktop app"
    : serveOnly("runs `npm start` where there is no Electron binary", { browser: true });

test(
  "npm start without Electron: the browser gets the URL and the page chats",
  { skip, timeout: 240_000 },
  async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "islet-readme-"));
    const workdir = path.join(dir, "project");
    await mkdir(workdir);
    const opened = path.join(dir, "opened.txt");
    const browserScript = path.join(dir, "browser.sh");
    await writeFile(browserScript, `#!/bin/sh\necho "$1" > '${opened}'\n`, { mode: 0o755 });
    const model = await startFakeOpenAI([{ text: ["Hello from ", "the README."] }]);
    const env: NodeJS.ProcessEnv = { ...process.env, BROWSER: browserScript, NO_COLOR: "1" };
    delete env["ELECTRON_EXEC_PATH"];
    const args = ["--port", "0", "--home", path.join(dir, "home"), "--workdir", workdir];
    const modelArgs = ["--provider", "openai-compatible", "--base-url", model.url, "--model", "m"];
    const npm = spawn(
      "npm",
      ["start", "--", ...args, ...modelArgs, "--plugin-runtime", "quickjs"],
      {
        cwd: ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true, // npm, scripts/start.js and islet serve: stopped together below
      },
    );
    let output = "";
    npm.stdout.on("data", (c: Buffer) => (output += c.toString()));
    npm.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const browser =
      target.name === "serve" && "path" in target.chromium
        ? await chromium.launch({ executablePath: target.chromium.path, args: CHROMIUM_ARGS })
        : null;
    try {
      // A build may come first (npm test makes one when it is stale, so usually not).
      const deadline = Date.now() + 180_000;
      let url = "";
      while (Date.now() < deadline && url === "") {
        url = (await readFile(opened, "utf8").catch(() => "")).trim();
        if (npm.exitCode !== null) assert.fail(`npm start ended (${npm.exitCode}): ${output}`);
        if (url === "") await sleep(100);
      }
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=/, output);
      assert.match(output, /No Electron binary here .*serving the same app to your browser/);
      assert.ok(output.includes(`Islet is serving on ${url}`), output);

      const { page, problems } = await watchedPage(browser!);
      await page.goto(url);
      const composer = page.getByRole("textbox", { name: "Message" });
      await composer.fill("Say hello");
      await page.keyboard.press("Enter");
      await expectText(
        page.getByRole("region", { name: "Conversation" }),
        "Hello from the README.",
        20_000,
      );
      assert.deepEqual(problems, []);
    } finally {
      await browser?.close();
      if (npm.pid !== undefined && npm.exitCode === null) process.kill(-npm.pid, "SIGINT");
      await new Promise((resolve) =>
        npm.exitCode !== null ? resolve(null) : npm.once("exit", resolve),
      );
      await model.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
);
