/**
 * The index reader that tells an update what to build: it lists what `git ls-files --stage`
 * lists (long names, an intent-to-add entry with its extended flags, an executable, a symlink),
 * the change between two indexes is every added, deleted, edited and re-moded path, and an index
 * it cannot read (version 4, a merge conflict, none at all) is "unknown", never a wrong answer.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { changedPaths, readIndexEntries } from "./git-index.ts";
import { gitTestEnv } from "./testing/git-servers.ts";

const run = promisify(execFile);
let root: string;
before(async () => {
  root = await mkdtemp(path.join(tmpdir(), "islet-git-index-"));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

let n = 0;
async function repo(): Promise<{ dir: string; git(...args: string[]): Promise<string> }> {
  const dir = path.join(root, `r${n++}`);
  await mkdir(dir);
  const git = async (...args: string[]) =>
    (await run("git", args, { cwd: dir, env: gitTestEnv({}) })).stdout;
  await git("init", "--quiet", "--initial-branch=main");
  return { dir, git };
}

/** What git says the index holds, as readIndexEntries puts it. */
async function lsFiles(git: (...args: string[]) => Promise<string>): Promise<Map<string, string>> {
  const out = await git("ls-files", "--stage", "-z");
  const entries = new Map<string, string>();
  for (const line of out.split("\0").filter(Boolean)) {
    const [meta, name] = line.split("\t");
    const [mode, id] = meta.split(" ");
    entries.set(name, `${mode} ${id}`);
  }
  return entries;
}

test("lists what git ls-files --stage lists, names of every length included", async () => {
  const { dir, git } = await repo();
  const names = [
    "a",
    "ab",
    "abcdefg",
    "dir/x.ts",
    `long/${"n".repeat(200)}/${"m".repeat(200)}.ts`,
    "ünïcode.md",
  ];
  for (let i = 0; i < 12; i++) names.push(`pad/${"p".repeat(i)}.ts`);
  for (const name of names) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), `${name}\n`);
  }
  await chmod(path.join(dir, "a"), 0o755);
  await symlink("dir/x.ts", path.join(dir, "link"));
  await git("add", ".");
  await writeFile(path.join(dir, "later.ts"), "later\n");
  await git("add", "--intent-to-add", "later.ts"); // an extended-flags entry: version 3
  const read = readIndexEntries(path.join(dir, ".git"));
  assert.ok(read, "the index was read");
  assert.deepEqual(read, await lsFiles(git));
  assert.match(read.get("a")!, /^100755 /);
  assert.match(read.get("link")!, /^120000 /);
});

test("the change between two indexes: added, deleted, edited and re-moded paths", async () => {
  const { dir, git } = await repo();
  for (const f of ["same.ts", "edit.ts", "gone.ts", "mode.sh"])
    await writeFile(path.join(dir, f), `${f}\n`);
  await git("add", ".");
  const before = readIndexEntries(path.join(dir, ".git"))!;
  await writeFile(path.join(dir, "edit.ts"), "edited\n");
  await writeFile(path.join(dir, "new.ts"), "new\n");
  await chmod(path.join(dir, "mode.sh"), 0o755);
  await rm(path.join(dir, "gone.ts"));
  await git("add", "--all");
  const after = readIndexEntries(path.join(dir, ".git"))!;
  assert.deepEqual(changedPaths(before, after), ["edit.ts", "gone.ts", "mode.sh", "new.ts"]);
  assert.deepEqual(changedPaths(after, after), []);
});

test("an index it cannot read is unknown: version 4, a merge conflict, no index", async () => {
  const { dir, git } = await repo();
  const gitDir = path.join(dir, ".git");
  assert.equal(readIndexEntries(gitDir), undefined, "no index yet");
  await writeFile(path.join(dir, "f.ts"), "base\n");
  await git("add", ".");
  await git("commit", "--quiet", "-m", "base");
  await git("update-index", "--index-version", "4");
  assert.equal(readIndexEntries(gitDir), undefined, "version 4");
  await git("update-index", "--index-version", "2");
  assert.ok(readIndexEntries(gitDir), "version 2 again");

  await git("checkout", "--quiet", "-b", "side");
  await writeFile(path.join(dir, "f.ts"), "side\n");
  await git("commit", "--quiet", "-am", "side");
  await git("checkout", "--quiet", "main");
  await writeFile(path.join(dir, "f.ts"), "main\n");
  await git("commit", "--quiet", "-am", "main");
  await git("merge", "--quiet", "side").catch(() => undefined); // conflicts, as meant
  assert.match(await git("ls-files", "--unmerged"), /f\.ts/);
  assert.equal(readIndexEntries(gitDir), undefined, "a conflicted index");
});
