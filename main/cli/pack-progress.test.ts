/**
 * The terminal progress of `islet plugins add`: given a stream that is a terminal, git's
 * percentages overwrite one line (at most every 100 ms) and each phase — resolving, cloning,
 * checking, vendoring, building, asking, installing — is a line of its own; given one that is
 * not, nothing is printed. Driven by a real install over git daemon with an npm dependency.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import type { PackProgress } from "../packs/index.ts";
import {
  gitRepos,
  pluginFiles,
  startGitDaemon,
  type GitRepos,
  type GitServer,
} from "../packs/testing/git-servers.ts";
import { packEnv } from "../packs/testing/pack-env.ts";
import { progressPrinter } from "./pack-progress.ts";

const run = promisify(execFile);
const CLEAR = "\r\x1b[K";

let repos: GitRepos;
let daemon: GitServer;
before(async () => {
  repos = await gitRepos();
  daemon = await startGitDaemon(repos.served);
});
after(async () => {
  await daemon.close();
  await repos.close();
});

function terminal() {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY: true, write: (t: string) => chunks.push(t) } };
}

test("percentages share one line, at most every 100 ms; a phase's line ends it; done prints nothing", () => {
  const { chunks, stream } = terminal();
  let clock = 1_000;
  const print = progressPrinter(stream, () => clock)!;
  const step = (p: PackProgress, ms = 0) => {
    clock += ms;
    print(p);
  };
  step({ phase: "cloning", message: "Cloning example.com/pack" });
  step({ phase: "cloning", message: "receiving 10% (1/10)", fraction: 0.1 });
  step({ phase: "cloning", message: "receiving 20% (2/10)", fraction: 0.2 }, 50); // too soon
  step({ phase: "cloning", message: "receiving 60% (6/10)", fraction: 0.6 }, 60);
  step({ phase: "cloning", message: "receiving 100% (10/10)", fraction: 1 }, 1);
  step({ phase: "vendoring", message: "npm install in pack/a" });
  step({ phase: "done", message: "Installed pack" });
  assert.deepEqual(chunks, [
    "Cloning example.com/pack\n",
    `${CLEAR}receiving 10% (1/10)`,
    `${CLEAR}receiving 60% (6/10)`,
    `${CLEAR}receiving 100% (10/10)\n`,
    "npm install in pack/a\n",
  ]);
  assert.equal(progressPrinter({ isTTY: false, write: () => assert.fail("written") }), undefined);
  assert.equal(progressPrinter({ write: () => assert.fail("written") }), undefined);
});

test("a real install over git daemon, with an npm dependency: the lines a terminal shows", async () => {
  await using env = await packEnv();
  const dep = path.join(env.root, "dep", "package");
  await mkdir(dep, { recursive: true });
  await writeFile(path.join(dep, "package.json"), '{"name":"tiny-dep","version":"1.0.0"}');
  await writeFile(path.join(dep, "index.js"), "module.exports = 1;\n");
  await run("tar", ["czf", "tiny-dep-1.0.0.tgz", "package"], { cwd: path.dirname(dep) });
  const tarball = await readFile(path.join(env.root, "dep", "tiny-dep-1.0.0.tgz"));
  const filler: Record<string, string> = {};
  for (let i = 0; i < 40; i++) filler[`docs/page${i}.md`] = `# Page ${i}\n${"text ".repeat(400)}\n`;
  await repos.create("islet-plugin-shown", {
    ...pluginFiles("one"),
    ...pluginFiles("two"),
    "two/package.json": JSON.stringify({
      name: "two",
      dependencies: { "tiny-dep": "file:./deps/tiny-dep-1.0.0.tgz" },
    }),
    "two/deps/tiny-dep-1.0.0.tgz": tarball,
    ...filler,
  });
  const { chunks, stream } = terminal();
  const progress = progressPrinter(stream)!;
  const url = daemon.url("islet-plugin-shown");
  await env
    .manager()
    .add({ source: url, scope: "global" }, { progress, consent: async () => true });

  const text = chunks.join("");
  assert.ok(text.endsWith("\n"), "the last line is finished");
  // What each line ends showing (a percentage overwritten in place shows its last value).
  const lines = text
    .slice(0, -1)
    .split("\n")
    .map((l) => l.split(CLEAR).at(-1));
  const phases = lines.filter((l) => !/^\S.* \d+% \(\d+\/\d+\)$/.test(l ?? ""));
  assert.deepEqual(phases, [
    `Resolving ${url}`,
    `Cloning ${url}`,
    "Checking the plugins of shown",
    "npm install in shown/two",
    "Building 2 plugins",
    "Asking to install shown",
    `Installing shown into ${env.globalPlugins}`,
  ]);
  // git's own progress went through too, overwriting itself on one line.
  assert.match(text, new RegExp(`${CLEAR.replace("[", "\\[")}\\S.* \\d+% \\(\\d+/\\d+\\)`));
});
