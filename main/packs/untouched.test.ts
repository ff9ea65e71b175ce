/**
 * The edit check without git: a fresh checkout is known untouched, and every kind of edit — a
 * changed file (even one keeping its size and mtime), a staged change, a new, deleted or
 * re-moded file, a file unstaged but kept — is left to `git status`. Ignored places stay untouched.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { appendFile, chmod, mkdir, mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { excludeIslands } from "./git-local.ts";
import { gitRepos, gitTestEnv, pluginFiles, type GitRepos } from "./testing/git-servers.ts";
import { consenting, packEnv } from "./testing/pack-env.ts";
import { markCheckedOut, surelyUntouched } from "./untouched.ts";

const run = promisify(execFile);
let repos: GitRepos;
let root: string;
let url: string;
before(async () => {
  repos = await gitRepos();
  root = await mkdtemp(path.join(tmpdir(), "islet-untouched-"));
  url = (await repos.create("plain", { ...pluginFiles("a"), ...pluginFiles("b/c") })).fileUrl;
});
after(async () => {
  await rm(root, { recursive: true, force: true });
  await repos.close();
});

let n = 0;
async function checkout(): Promise<string> {
  const dir = path.join(root, `c${n++}`);
  await run("git", ["clone", "--quiet", "--template=", url, dir], { env: gitTestEnv({}) });
  await excludeIslands(dir);
  markCheckedOut(dir);
  return dir;
}

const git = (dir: string, ...args: string[]) =>
  run("git", args, { cwd: dir, env: gitTestEnv({}) }).then((r) => r.stdout);

test("a fresh checkout is untouched; node_modules and the sidecar are not edits", async () => {
  const dir = await checkout();
  assert.equal(surelyUntouched(dir), true);
  await mkdir(path.join(dir, "a", "node_modules", "x"), { recursive: true });
  await writeFile(path.join(dir, "a", "node_modules", "x", "index.js"), "");
  await writeFile(path.join(dir, ".origin.yaml"), "url: x\n");
  assert.equal(surelyUntouched(dir), true);
});

test("every kind of edit is left to git status", async () => {
  const edits: Record<string, (dir: string) => Promise<unknown>> = {
    "an appended line": (d) => appendFile(path.join(d, "a", "index.ts"), "// mine\n"),
    "same size, mtime put back": async (d) => {
      const file = path.join(d, "a", "plugin.yaml");
      const before = await stat(file);
      await writeFile(file, "X".repeat(before.size));
      await utimes(file, before.atime, before.mtime);
    },
    "a new file": (d) => writeFile(path.join(d, "b", "notes.txt"), "mine\n"),
    "a deleted file": (d) => rm(path.join(d, "b", "c", "index.ts")),
    "made executable": (d) => chmod(path.join(d, "a", "index.ts"), 0o755),
    "a staged change, the file put back": async (d) => {
      const file = path.join(d, "a", "index.ts");
      await appendFile(file, "// staged\n");
      await git(d, "add", "a/index.ts");
      await git(d, "checkout", "HEAD", "--", "a/index.ts");
    },
    "a file taken out of the index, kept on disk": (d) =>
      git(d, "rm", "--quiet", "--cached", "a/index.ts"),
  };
  for (const [what, edit] of Object.entries(edits)) {
    const dir = await checkout();
    await edit(dir);
    assert.equal(surelyUntouched(dir), false, what);
  }
});

test("a copy without the mark is left to git", async () => {
  const dir = path.join(root, "unmarked");
  await run("git", ["clone", "--quiet", url, dir], { env: gitTestEnv({}) });
  assert.equal(surelyUntouched(dir), false);
});

test("installed and updated packs carry the note, so their next update starts no git status", async () => {
  await using env = await packEnv();
  const repo = await repos.create("noted", { ...pluginFiles("p1"), ...pluginFiles("p2") });
  const manager = env.manager();
  const pack = await manager.add({ source: repo.fileUrl, scope: "global" }, consenting());
  assert.equal(surelyUntouched(pack.dir), true, "after install");
  await repo.commit("Change", pluginFiles("p2", { version: "2" }));
  assert.equal((await manager.update("noted", consenting())).changed, true);
  assert.equal(surelyUntouched(pack.dir), true, "after update");
});
