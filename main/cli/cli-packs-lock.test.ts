/**
 * Two processes changing plugins at once: a live holder of the packs lock makes `islet plugins
 * add` wait and then stop in one line naming it, with nothing installed; a holder that died leaves
 * a stale lock that is taken over; two real CLIs at once both install, one after the other.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { access, mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { gitRepos, pluginFiles, type GitRepos } from "../packs/testing/git-servers.ts";
import { islet, tempDirs } from "./testing/islet.ts";

const HOLDER = fileURLToPath(new URL("../packs/testing/hold-lock.ts", import.meta.url));

let repos: GitRepos;
before(async () => {
  repos = await gitRepos();
});
after(async () => {
  await repos.close();
});

async function setup() {
  const dirs = await tempDirs();
  const user = path.join(dirs.root, "user");
  await mkdir(user, { recursive: true });
  await writeFile(path.join(user, ".gitconfig"), "");
  const env = {
    HOME: user,
    GIT_CONFIG_GLOBAL: path.join(user, ".gitconfig"),
    GIT_CONFIG_NOSYSTEM: "1",
  };
  const run = (args: string[]) =>
    islet([...args, "--home", dirs.home, "--workdir", dirs.workdir], env);
  return { dirs, run, globalPlugins: path.join(dirs.home, "plugins") };
}

/** Another process holding the packs lock of `home` until its stdin ends (or it is killed). */
async function holdLock(home: string) {
  const child = spawn(process.execPath, ["--no-node-snapshot", HOLDER, home], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  while (!out.includes("locked")) await once(child.stdout, "data");
  return child;
}

const installed = (dir: string) => readdir(dir).catch(() => [] as string[]);

test("a live holder: add waits, then stops in one line naming its pid, with nothing installed", async () => {
  const { dirs, run, globalPlugins } = await setup();
  const holder = await holdLock(dirs.home);
  try {
    const repo = await repos.create("waits", pluginFiles("", { name: "waits" }));
    const t0 = Date.now();
    const busy = await run(["plugins", "add", repo.fileUrl, "--global", "--yes"]);
    assert.equal(busy.code, 1, busy.stderr);
    assert.match(
      busy.stderr,
      new RegExp(
        `^islet: another islet is installing, updating or removing plugins \\(pid ${holder.pid}, installing a test pack since [^)]+\\); try again when it finishes \\(if no islet is running, delete .*packs\\.lock\\)\\n$`,
        "m",
      ),
    );
    assert.ok(Date.now() - t0 >= 9_000, "it waited for the holder first");
    assert.deepEqual(await installed(globalPlugins), []);

    // The holder finishes: the same command goes through.
    holder.stdin.end();
    await once(holder, "exit");
    const ok = await run(["plugins", "add", repo.fileUrl, "--global", "--yes"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(await installed(globalPlugins), ["waits"]);
  } finally {
    holder.kill("SIGKILL");
    await dirs.clean();
  }
});

test("a holder that died leaves a stale lock: the next add takes it over", async () => {
  const { dirs, run, globalPlugins } = await setup();
  try {
    const holder = await holdLock(dirs.home);
    holder.kill("SIGKILL");
    await once(holder, "exit");
    await access(path.join(dirs.home, "packs.lock")); // left behind
    const repo = await repos.create("after-crash", pluginFiles("", { name: "after-crash" }));
    const ok = await run(["plugins", "add", repo.fileUrl, "--global", "--yes"]);
    assert.equal(ok.code, 0, ok.stderr); // a live holder would have stopped it after 10 s
    assert.deepEqual(await installed(globalPlugins), ["after-crash"]);
    await assert.rejects(access(path.join(dirs.home, "packs.lock")), "released");
  } finally {
    await dirs.clean();
  }
});

test("two CLIs at once both install, one after the other", async () => {
  const { dirs, run, globalPlugins } = await setup();
  try {
    const a = await repos.create("twin-a", pluginFiles("", { name: "twin-a" }));
    const b = await repos.create("twin-b", pluginFiles("", { name: "twin-b" }));
    const [ra, rb] = await Promise.all([
      run(["plugins", "add", a.fileUrl, "--global", "--yes"]),
      run(["plugins", "add", b.fileUrl, "--global", "--yes"]),
    ]);
    assert.equal(ra.code, 0, ra.stderr);
    assert.equal(rb.code, 0, rb.stderr);
    assert.deepEqual((await installed(globalPlugins)).sort(), ["twin-a", "twin-b"]);
  } finally {
    await dirs.clean();
  }
});
