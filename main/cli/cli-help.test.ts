// Every subcommand's --help, through the real binary: its own usage, options and an example, and
// nothing run (no server, no model request, no home written). Unknown options point to it.
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { COMMANDS } from "./help.ts";
import { islet, tempDirs } from "./testing/islet.ts";

test("each command's --help, -h and `islet help CMD` print its help and run nothing", async () => {
  const dirs = await tempDirs();
  const model = await startFakeOpenAI([{ text: ["should not be asked"] }]);
  const home = join(dirs.root, "never-made");
  const provider = ["--provider", "openai-compatible", "--base-url", model.url, "--model", "m"];
  try {
    for (const name of Object.keys(COMMANDS)) {
      const withModel = name === "run" || name === "serve" ? provider : [];
      const asked = await Promise.all([
        islet([name, "--help", "--home", home, ...withModel, "a prompt"]),
        islet([name, "-h", "--home", home]),
        islet(["help", name]),
      ]);
      for (const ran of asked) {
        assert.equal(ran.code, 0, `${name}: ${ran.stderr}`);
        assert.equal(ran.stderr, "", name);
        assert.match(ran.stdout, new RegExp(`^Usage:\\n  islet ${name}\\b`), name);
        assert.match(ran.stdout, /\nOptions:\n {2}-/, name);
        assert.match(ran.stdout, new RegExp(`\\nExample:\\n {2}islet ${name} `), name);
      }
      assert.equal(asked[0].stdout, asked[2].stdout, `${name}: one help, however it is asked`);
    }
    assert.equal(model.chatRequests.length, 0, "no run reached the model");
    assert.ok(!existsSync(home), "no home was created");
  } finally {
    await model.close();
    await dirs.clean();
  }
});

test("words after -- are the prompt's, not a request for help", async () => {
  const dirs = await tempDirs();
  const model = await startFakeOpenAI([{ text: ["answered"] }]);
  try {
    const ran = await islet([
      "run",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
      "--provider",
      "openai-compatible",
      "--base-url",
      model.url,
      "--model",
      "m",
      "--",
      "explain",
      "--help",
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /answered/);
  } finally {
    await model.close();
    await dirs.clean();
  }
});

test("islet --help lists every command and the plugin options; unknown words point to help", async () => {
  const overview = await islet(["--help"]);
  assert.equal(overview.code, 0);
  for (const name of Object.keys(COMMANDS))
    assert.match(overview.stdout, new RegExp(`islet ${name}`));
  assert.match(overview.stdout, /--plugin-runtime R/);
  assert.match(overview.stdout, /islet COMMAND --help/);

  const option = await islet(["run", "--frobnicate", "hi"]);
  assert.equal(option.code, 2);
  assert.equal(option.stderr.trim().split("\n").length, 1, option.stderr);
  assert.match(option.stderr, /--frobnicate.*see `islet run --help`/);

  const sub = await islet(["trust", "frobnicate"]);
  assert.equal(sub.code, 2);
  assert.match(sub.stderr, /see `islet trust --help`$/m);

  const command = await islet(["frobnicate"]);
  assert.equal(command.code, 2);
  assert.match(command.stderr, /unknown command "frobnicate"; see `islet --help`/);

  const nothing = await islet(["help", "frobnicate"]);
  assert.equal(nothing.code, 2);
});

test("a folder or file named on the command line that is not there: one line, exit 2, nothing run", async () => {
  const dirs = await tempDirs();
  const model = await startFakeOpenAI([{ text: ["should not be asked"] }]);
  const missing = join(dirs.root, "nowhere");
  const provider = ["--provider", "openai-compatible", "--base-url", model.url, "--model", "m"];
  try {
    const cases: [string[], RegExp][] = [
      [
        ["run", "--workdir", missing, ...provider, "hi"],
        /--workdir .*nowhere: no such folder; name the folder to work in; see `islet run --help`/,
      ],
      [
        ["run", "--env-file", missing, ...provider, "hi"],
        /--env-file .*nowhere: no such file; name a file of KEY=VALUE lines/,
      ],
      [["run", "--env-file", dirs.root, ...provider, "hi"], /--env-file .*: a folder, not a file/],
      [["trust", "add", missing, "--home", dirs.home], /trust add .*nowhere: no such folder/],
      [["serve", "--workdir", missing], /--workdir .*nowhere: no such folder.*islet serve --help/],
    ];
    for (const [args, said] of cases) {
      const ran = await islet(args);
      assert.equal(ran.code, 2, `${args.join(" ")}: ${ran.stderr}`);
      assert.equal(ran.stderr.trim().split("\n").length, 1, ran.stderr);
      assert.match(ran.stderr, said);
    }
    assert.equal(model.chatRequests.length, 0);
    assert.ok(!existsSync(join(dirs.home, "trust.json")), "nothing was trusted");
  } finally {
    await model.close();
    await dirs.clean();
  }
});
