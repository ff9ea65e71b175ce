/**
 * `islet trust add`, then a change to the script a project hook runs: `islet run` without a
 * terminal holds the folder's parts back with one line; at a real terminal (`script`) it asks the
 * trust question listing the change, and once confirmed the hook runs.
 */
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { BIN, islet, tempDirs } from "./testing/islet.ts";

test(
  "attack: a trusted folder's hook script changed after `islet trust add` is held back without a terminal and asked about at one",
  {
    skip:
      spawnSync("script", ["--version"]).status !== 0 && "no `script` to give the CLI a terminal",
  },
  async () => {
    const dirs = await tempDirs();
    const work = path.join(dirs.root, "work");
    const log = path.join(dirs.root, "marks.log");
    const model = await startFakeOpenAI(Array.from({ length: 4 }, () => ({ text: ["ok"] })));
    const common = ["--home", dirs.home, "--workdir", work];
    const runArgs = [
      "run",
      "--provider",
      "openai-compatible",
      "--base-url",
      model.url,
      "--model",
      "m",
      ...common,
      "hi",
    ];
    const marks = async () => (existsSync(log) ? await readFile(log, "utf8") : "");
    try {
      await mkdir(path.join(work, ".islet", "config", "hooks"), { recursive: true });
      await writeFile(
        path.join(work, ".islet", "config", "hooks", "check.json"),
        JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: "command", command: "sh check.sh" }] }] },
        }),
      );
      await writeFile(path.join(work, "check.sh"), `echo approved >> '${log}'\n`);
      assert.equal((await islet(["trust", "add", ...common])).code, 0);
      const trusted = await islet(runArgs);
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.equal(await marks(), "approved\n");

      await writeFile(path.join(work, "check.sh"), `echo swapped >> '${log}'\n`);
      const headless = await islet(runArgs);
      assert.equal(headless.code, 0, headless.stderr);
      assert.match(
        headless.stderr,
        /what runs from .* changed since you trusted it.*check\.sh, run by hook in \.islet\/config\/hooks\/check\.json/,
      );
      assert.match(headless.stderr, /run at a terminal to confirm the changes/);
      assert.equal(await marks(), "approved\n", "held back: the swapped script did not run");

      let atQuestion = "";
      const atTerminal = await new Promise<string>((resolve) => {
        const cmd = [process.execPath, "--no-node-snapshot", BIN, ...runArgs]
          .map((a) => `'${a}'`)
          .join(" ");
        const child = execFile(
          "script",
          ["-qec", cmd, "/dev/null"],
          { env: { ...process.env, NO_COLOR: "1" }, timeout: 60_000 },
          (_e, stdout) => resolve(stdout),
        );
        let seen = "";
        let answered = false;
        child.stdin!.on("error", () => undefined);
        child.stdout!.on("data", (c: Buffer) => {
          seen += c.toString();
          if (answered || !seen.includes("[t]rust / [o]nly this run / [n]o")) return;
          answered = true;
          atQuestion = readFileSync(log, "utf8");
          child.stdin!.write("t\n");
        });
      });
      assert.match(atTerminal, /changed since you trusted it: check\.sh, run by hook/);
      assert.equal(atQuestion, "approved\n", "nothing ran while it asked");
      assert.equal(await marks(), "approved\nswapped\n", "confirmed at the terminal: it runs");

      const after = await islet(runArgs);
      assert.doesNotMatch(after.stderr, /changed since you trusted it/, "confirmed once");
    } finally {
      await model.close();
      await dirs.clean();
    }
  },
);
