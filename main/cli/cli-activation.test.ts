/**
 * On-demand activation from the CLI (the real `islet` binary, a loopback model): headless without
 * --yes nobody can confirm, so the model is told it was not activated; with --yes it is activated
 * for that run only (nothing is remembered for the workspace).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { activationFile } from "../extensions/activation/store.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { islet, tempDirs } from "./testing/islet.ts";

const CODE = `export function schema() { return { name: "WordCount", description: "Counts words.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }; }
export function execute(ctx, args) { return "words=" + args.text.split(/\\s+/).length; }`;

test("islet run: denied headless without --yes; with --yes activated for the run, its tool used, nothing recorded", async () => {
  const dirs = await tempDirs();
  const activate = {
    toolCalls: [{ name: "activate_plugin", arguments: { name: "wordcount", reason: "count" } }],
  };
  const server = await startFakeOpenAI([
    activate,
    { text: ["no plugin then"] },
    activate,
    { toolCalls: [{ name: "WordCount", arguments: { text: "a b" } }] },
    { text: ["two words"] },
  ]);
  try {
    const plugin = path.join(dirs.home, "plugins", "wordcount");
    await mkdir(plugin, { recursive: true });
    await writeFile(
      path.join(plugin, "plugin.yaml"),
      'description: "Counts words."\nactivation: on-demand\n',
    );
    await writeFile(path.join(plugin, "index.ts"), CODE);
    const run = (...more: string[]) =>
      islet([
        "run",
        ...["--provider", "openai-compatible", "--base-url", server.url, "--model", "m"],
        ...["--home", dirs.home, "--workdir", dirs.workdir, ...more],
        "count the words",
      ]);
    const last = (i: number) =>
      (server.chatRequests[i].body as { messages: { content: string }[] }).messages.at(-1)?.content;

    const headless = await run();
    assert.equal(headless.code, 0, headless.stderr);
    assert.equal(
      last(1),
      "wordcount was not activated: nobody could confirm it (headless runs need --yes)",
    );

    const yes = await run("--yes");
    assert.equal(yes.code, 0, yes.stderr);
    assert.equal(last(3), "wordcount is active; its tools are available now: WordCount");
    assert.equal(last(4), "words=2");
    assert.match(yes.stdout, /two words/);
    assert.equal(existsSync(activationFile(dirs.home)), false, "--yes holds for one run");
  } finally {
    await server.close();
    await dirs.clean();
  }
});

test("islet plugins list|show: a runner plugin with its status and what it would run", async () => {
  const dirs = await tempDirs();
  const plugin = path.join(dirs.home, "plugins", "dt");
  await mkdir(plugin, { recursive: true });
  await writeFile(
    path.join(plugin, "manifest.json"),
    JSON.stringify({
      name: "dt",
      description: "Runs .NET tests",
      command: "dotnet test",
      runner: "container",
      image: "mcr.microsoft.com/dotnet/sdk:6.0",
      mount: { host_path: "{working_dir}", path: "/app" },
    }),
  );
  const args = ["--home", dirs.home, "--workdir", dirs.workdir];
  const list = await islet(["plugins", "list", ...args]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /CLI-tool runner plugins:\n {2}dt: inactive \(`\/plugin activate dt`/);
  assert.match(list.stdout, /mcr\.microsoft\.com\/dotnet\/sdk:6\.0/);
  assert.match(list.stdout, new RegExp(`mounts ${dirs.workdir} at /app \\(read-only\\)`));
  const show = await islet(["plugins", "show", "dt", "--json", ...args]);
  assert.equal(show.code, 0, show.stderr);
  const entry = JSON.parse(show.stdout) as { kind: string; status: string };
  assert.deepEqual([entry.kind, entry.status], ["runner", "inactive"]);
});
