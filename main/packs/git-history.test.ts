/**
 * An update's "what changed" from one `git log`: the same commits and files as `git log` and
 * `git diff -M` give (adds, edits, deletes, renames, a file added then deleted, one deleted then
 * added back), the commits limited to the subpath, and a range with a merge. Started before the
 * commits are fetched (as an update starts it), it reads the same; stopped unused, it ends.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startChanges } from "./git-history.ts";
import { commitsBetween, filesBetween } from "./git-local.ts";
import { gitRepos, gitTestEnv, type GitRepos } from "./testing/git-servers.ts";

let repos: GitRepos;
before(async () => {
  repos = await gitRepos();
});
after(async () => {
  await repos.close();
});

const env = gitTestEnv({});
const sorted = <T extends { path: string }>(xs: T[]) =>
  [...xs].sort((a, b) => (a.path < b.path ? -1 : 1));

async function expectSame(dir: string, from: string, to: string, subpath?: string) {
  const one = await startChanges(dir, subpath, env).read(from, to);
  assert.deepEqual(one.commits, await commitsBetween(dir, from, to, subpath, env));
  assert.deepEqual(one.files, sorted(await filesBetween(dir, from, to, undefined, env)));
  return one;
}

test("one git log gives what git log and git diff give", async () => {
  const long = (s: string) => `${s}\n${"the same long content line\n".repeat(30)}`;
  const repo = await repos.create("history", {
    "p/a.ts": "a\n",
    "p/gone.ts": "gone\n",
    "p/moved.ts": long("moved"),
    "p/back.ts": "back\n",
    "q/other.ts": "other\n",
  });
  const from = await repo.head();
  await repo.commit("Edit a, add b", { "p/a.ts": "a2\n", "p/b.ts": "b\n" });
  await repo.commit("Delete gone, move moved", {
    "p/gone.ts": null,
    "p/moved.ts": null,
    "p/renamed.ts": long("moved"),
  });
  await repo.commit("Add then", { "p/brief.ts": "brief\n", "p/back.ts": null });
  await repo.commit("delete, and back", { "p/brief.ts": null, "p/back.ts": "back again\n" });
  await repo.commit("Outside the subpath", { "q/other.ts": "other2\n" });
  const to = await repo.head();
  const all = await expectSame(repo.dir, from, to);
  assert.deepEqual(all.files, [
    { path: "p/a.ts", change: "modified" },
    { path: "p/b.ts", change: "added" },
    { path: "p/back.ts", change: "modified" },
    { path: "p/gone.ts", change: "deleted" },
    { path: "p/renamed.ts", change: "renamed" },
    { path: "q/other.ts", change: "modified" },
  ]);
  assert.equal(all.commits.length, 5);
  const sub = await expectSame(repo.dir, from, to, "p");
  assert.deepEqual(
    sub.commits.map((c) => c.subject),
    ["delete, and back", "Add then", "Delete gone, move moved", "Edit a, add b"],
  );
});

test("a range with a merge", async () => {
  const repo = await repos.create("merged", { "a.ts": "a\n", "b.ts": "b\n" });
  const from = await repo.head();
  await repo.branch("side");
  await repo.commit("Side deletes b", { "b.ts": null, "c.ts": "c\n" });
  await repo.checkout("main");
  await repo.commit("Main edits a", { "a.ts": "a2\n" });
  await repo.git("merge", "--quiet", "--no-ff", "-m", "Merge side", "side");
  await repo.git("push", "--quiet", "origin", "main");
  await expectSame(repo.dir, from, await repo.head());
});

test("started before the fetch brought the commits, it reads what git log and git diff give", async () => {
  const run = promisify(execFile);
  const repo = await repos.create("early", { "p/a.ts": "a\n", "q/b.ts": "b\n" });
  const root = await mkdtemp(path.join(tmpdir(), "islet-history-"));
  try {
    const clone = path.join(root, "clone");
    await run("git", ["clone", "--quiet", repo.fileUrl, clone], { env });
    const from = await repo.head();
    const started = startChanges(clone, "p", env);
    const unused = startChanges(clone, undefined, env);
    await repo.commit("Edit a", { "p/a.ts": "a2\n" });
    await repo.commit("Edit b", { "q/b.ts": "b2\n" });
    await run("git", ["fetch", "--quiet", repo.fileUrl, "HEAD"], { cwd: clone, env });
    const to = await repo.head();
    const read = await started.read(from, to);
    assert.deepEqual(read.commits, await commitsBetween(clone, from, to, "p", env));
    assert.deepEqual(read.files, sorted(await filesBetween(clone, from, to, undefined, env)));
    assert.deepEqual(
      read.commits.map((c) => c.subject),
      ["Edit a"],
    );
    await unused.stop(); // resolves once its git has exited
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
