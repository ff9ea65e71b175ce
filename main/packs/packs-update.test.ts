/**
 * Updating and removing packs: a commit is fetched and shown (commits, files), an update that
 * does not build leaves the old version installed and serving in the real runtime, an update
 * asking for more permissions shows only what is new, local edits stop an update unless forced,
 * `updateAll` goes on past a failing pack, and remove takes a whole pack away.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { appendFile, chmod, mkdir, readFile, readlink, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { createEngine } from "../engine/bootstrap.ts";
import { YES_FOR_THIS_RUN } from "../host/questions.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import {
  gitRepos,
  gitTestEnv,
  packFiles,
  pluginFiles,
  pluginGreeting,
  startGitHttp,
  type GitHttpServer,
  type GitRepos,
  writeRepoFiles,
} from "./testing/git-servers.ts";
import { consenting, loads, packEnv, state } from "./testing/pack-env.ts";
import type { PackUpdateOutcome } from "./types.ts";

const run = promisify(execFile);
let repos: GitRepos;
let http: GitHttpServer;
before(async () => {
  repos = await gitRepos();
  http = await startGitHttp(repos.served, { token: "upd-token" });
});
after(async () => {
  await http.close();
  await repos.close();
});

test("an update fetches the new commit, shows commits and files, and swaps the pack in", async () => {
  await using env = await packEnv();
  const repo = await repos.create("tools", packFiles(2, "tool"));
  const first = await repo.head();
  const manager = env.manager({ GIT_TOKEN: "upd-token" });
  const url = http.url("tools");
  const installed = await manager.add({ source: url, scope: "global" }, consenting());

  const same = consenting();
  const none = await manager.update("tools", same);
  assert.deepEqual([none.changed, none.from, none.to], [false, first, first]);
  assert.equal(same.asked.length, 0, "nothing asked when up to date");

  await repo.commit("Louder greeting", pluginFiles("tool1", { version: "2" }));
  const second = await repo.commit("Add a third tool", pluginFiles("tool3"));
  const hooks = consenting();
  const out = await manager.update("tool2", hooks); // a plugin's name updates its pack
  assert.deepEqual([out.changed, out.from, out.to], [true, first, second]);
  assert.deepEqual(out.pack.plugins, ["tool1", "tool2", "tool3"]);
  const q = hooks.asked[0];
  assert.equal(q.kind, "pack-update");
  if (q.kind !== "pack-update") return;
  assert.equal(q.source, url);
  assert.deepEqual(
    q.commits.map((c) => [c.subject, c.author]),
    [
      ["Add a third tool", "Test Author"],
      ["Louder greeting", "Test Author"],
    ],
  );
  assert.deepEqual(q.files.map((f) => `${f.change} ${f.path}`).sort(), [
    "added tool3/index.ts",
    "added tool3/plugin.yaml",
    "modified tool1/index.ts",
  ]);
  assert.deepEqual(q.removed, []);
  assert.match(await readFile(path.join(installed.dir, "tool1", "index.ts"), "utf8"), /version 2/);
  const origin = await readFile(path.join(installed.dir, ".origin.yaml"), "utf8");
  assert.match(origin, new RegExp(`^commit: ${second}$`, "m"));
  assert.match(
    origin,
    new RegExp(`^installed_at: ${installed.origin!.installedAt.replace(/\./g, "\\.")}$`, "m"),
  );
  assert.match(origin, /^updated_at: /m);
  assert.equal(out.pack.origin?.updatedAt !== undefined, true);
  assert.deepEqual((await loads(env)).names.sort(), ["keeper", "tool1", "tool2", "tool3"]);
});

test("an update over the installed copy writes exactly the new commit; the old copy is gone once settled", async () => {
  await using env = await packEnv();
  const repo = await repos.create("exact", {
    ...pluginFiles("p1"),
    ...pluginFiles("p2"),
    "docs/same.md": "unchanged\n",
    "docs/gone.md": "to be deleted\n",
    "docs/link.md": { symlink: "same.md" },
    "bin/run.sh": "#!/bin/sh\necho run\n",
    "lib/shared.txt": "shared v1\n",
  });
  const manager = env.manager();
  const installed = await manager.add({ source: repo.fileUrl, scope: "global" }, consenting());
  // The same size, moments after the install: only the content tells the file changed.
  await repo.commit("Edit, delete, add, relink", {
    "lib/shared.txt": "shared v2\n",
    "docs/gone.md": null,
    "docs/new.md": "new\n",
    "docs/link.md": { symlink: "new.md" },
    "p1/index.ts": (await readFile(path.join(installed.dir, "p1/index.ts"), "utf8")).replace(
      "version 1",
      "version 9",
    ),
  });
  await chmod(path.join(repo.dir, "bin/run.sh"), 0o755);
  const to = await repo.commit("Make run.sh executable");
  const out = await manager.update("exact", consenting());
  assert.equal(out.to, to);

  const git = async (dir: string, ...args: string[]) =>
    (await run("git", args, { cwd: dir, env: gitTestEnv({}) })).stdout;
  assert.equal(await git(installed.dir, "rev-parse", "HEAD"), `${to}\n`);
  assert.equal(
    await git(installed.dir, "ls-files", "--stage"),
    await git(repo.dir, "ls-files", "--stage"),
  );
  assert.equal(
    await git(installed.dir, "status", "--porcelain", "--untracked-files=all"),
    "",
    "every file as the commit has it, and nothing else",
  );
  assert.equal(await readFile(path.join(installed.dir, "lib/shared.txt"), "utf8"), "shared v2\n");
  assert.match(await readFile(path.join(installed.dir, "p1/index.ts"), "utf8"), /version 9/);
  assert.equal(await readlink(path.join(installed.dir, "docs/link.md")), "new.md");
  assert.equal(await stat(path.join(installed.dir, "docs/gone.md")).catch(() => "gone"), "gone");
  assert.ok((await stat(path.join(installed.dir, "bin/run.sh"))).mode & 0o100, "executable");

  await manager.settled();
  assert.ok(!(await state(env)).some((l) => /\.islet-/.test(l)), "the old copy is deleted");
});

test("an update that does not build leaves the old version installed and serving", async () => {
  await using env = await packEnv();
  const repo = await repos.create("greeter", pluginFiles("", { name: "greeter", version: "1" }));
  const manager = env.manager();
  await manager.add({ source: repo.fileUrl, scope: "global" }, consenting());
  const server = await startFakeOpenAI([]);
  /** What a freshly started engine (the real runtime, loading from disk) sends the model. */
  const servedByNewEngine = async () => {
    server.push({ text: ["ok"] });
    const engine = await createEngine({
      home: env.homes.global,
      workdir: env.homes.workdir,
      env: {},
      flags: { provider: "openai-compatible", baseUrl: server.url, model: "m" },
      plugins: {},
      questions: YES_FOR_THIS_RUN,
      warn: () => undefined,
    });
    const conversation = await engine.open({ emit: () => undefined });
    try {
      await conversation.submit("hello");
      return JSON.stringify(server.chatRequests.at(-1)?.body);
    } finally {
      await conversation.close();
      await engine.close();
    }
  };
  try {
    assert.ok((await servedByNewEngine()).includes(pluginGreeting("greeter", "1")));
    await repo.commit("Broken", { "index.ts": "export function beforeChat( {\n" });
    const before = await state(env);
    await assert.rejects(
      manager.update("greeter", consenting()),
      /plugin "greeter" does not build: greeter\/index\.ts:\d+:\d+/,
    );
    assert.deepEqual(await state(env), before, "the old version is untouched, no staging left");
    assert.ok(
      (await servedByNewEngine()).includes(pluginGreeting("greeter", "1")),
      "the old version still serves",
    );

    await repo.commit("Fixed", pluginFiles("", { name: "greeter", version: "2" }));
    await manager.update("greeter", consenting());
    assert.ok(
      (await servedByNewEngine()).includes(pluginGreeting("greeter", "2")),
      "a good update serves",
    );
  } finally {
    await server.close();
  }
});

test("an update asking for more permissions shows only the new ones; declining keeps the old version", async () => {
  await using env = await packEnv();
  const perms = (lines: string) => `permissions:\n${lines}`;
  const repo = await repos.create("notes", {
    ...pluginFiles("writer", {
      yaml: perms('  network: [{ host: api.example.com, reason: "sync" }]\n'),
    }),
    ...pluginFiles("plain"),
  });
  const manager = env.manager();
  await manager.add({ source: repo.fileUrl, scope: "global" }, consenting());
  await repo.commit(
    "Also mail",
    pluginFiles("writer", {
      version: "2",
      yaml: perms(
        '  network: [{ host: api.example.com, reason: "sync" }, { host: mail.example.com, reason: "mails" }]\n  env: [{ name: MAIL_KEY, reason: "mail account" }]\n',
      ),
    }),
  );
  const declined = consenting(false);
  const before = await state(env);
  await assert.rejects(
    manager.update("notes", declined),
    /notes was not updated: the update was not accepted/,
  );
  assert.deepEqual(await state(env), before);
  const q = declined.asked[0];
  assert.equal(q.kind, "pack-update");
  assert.deepEqual(
    q.plugins.map((p) => [p.name, p.permissions.map((i) => `${i.kind}:${i.target}`)]),
    [
      ["plain", []],
      ["writer", ["network:mail.example.com", "env:MAIL_KEY"]],
    ],
  );

  const accepted = consenting();
  const out: PackUpdateOutcome = await manager.update("notes", accepted);
  assert.equal(out.changed, true);
  const grants = JSON.parse(await readFile(path.join(env.homes.global, "grants.json"), "utf8")) as {
    plugins: Record<string, { name: string; granted: string[] }>;
  };
  const writer = Object.values(grants.plugins).find((g) => g.name === "writer");
  assert.deepEqual(writer?.granted, [
    "env:MAIL_KEY",
    "network:api.example.com",
    "network:mail.example.com",
  ]);
});

test("local edits stop an update unless forced; vendored files and the sidecar are not edits", async () => {
  await using env = await packEnv();
  const repo = await repos.create("edited", packFiles(2, "e"));
  const manager = env.manager();
  const pack = await manager.add({ source: repo.fileUrl, scope: "global" }, consenting());
  await mkdir(path.join(pack.dir, "e1", "node_modules", "x"), { recursive: true });
  await writeFile(path.join(pack.dir, "e1", "node_modules", "x", "index.js"), "");
  await repo.commit("Upstream change", pluginFiles("e2", { version: "2" }));
  const clean = await manager.update("edited", consenting());
  assert.equal(clean.changed, true);

  await repo.commit("Another", pluginFiles("e2", { version: "3" }));
  await appendFile(path.join(pack.dir, "e1", "index.ts"), "// mine\n");
  await writeFile(path.join(pack.dir, "notes.txt"), "mine\n");
  const before = await state(env);
  await assert.rejects(
    manager.update("edited", consenting()),
    /edited was edited since it was installed \(M e1\/index\.ts, \?\? notes\.txt\): keep your changes elsewhere, or pass --force/,
  );
  assert.deepEqual(await state(env), before);
  const forced = await manager.update("edited", consenting(true, { force: true }));
  assert.equal(forced.changed, true);
  assert.doesNotMatch(await readFile(path.join(pack.dir, "e1", "index.ts"), "utf8"), /mine/);
});

test("a subpath pack's update shows only what changed under the subpath", async () => {
  await using env = await packEnv();
  const repo = await repos.create("mono", {
    ...packFiles(1, "in", "plugins"),
    "docs/README.md": "docs\n",
  });
  const manager = env.manager();
  await manager.add({ source: repo.fileUrl, subpath: "plugins", scope: "global" }, consenting());
  await repo.commit("Docs only", { "docs/README.md": "more docs\n" });
  await repo.commit("Plugin change", pluginFiles("plugins/in1", { version: "2" }));
  const hooks = consenting();
  await manager.update("mono", hooks);
  const q = hooks.asked[0];
  assert.ok(q.kind === "pack-update");
  if (q.kind !== "pack-update") return;
  assert.deepEqual(
    q.commits.map((c) => c.subject),
    ["Plugin change"],
  );
  assert.deepEqual(
    q.files.map((f) => f.path),
    ["plugins/in1/index.ts"],
  );
});

test("updateAll updates every git pack and reports a failing one without stopping", async () => {
  await using env = await packEnv();
  const a = await repos.create("pack-a", pluginFiles("", { name: "pack-a" }));
  const b = await repos.create("pack-b", pluginFiles("", { name: "pack-b" }));
  const manager = env.manager();
  await manager.add({ source: a.fileUrl, scope: "global" }, consenting());
  await manager.add({ source: b.fileUrl, scope: "project" }, consenting());
  const plain = path.join(env.root, "plain-folder");
  await writeRepoFiles(plain, pluginFiles("", { name: "copied" }));
  await manager.add({ source: plain, name: "copied", scope: "global" }, consenting());
  await a.commit("A2", pluginFiles("", { name: "pack-a", version: "2" }));
  await b.commit("B2", pluginFiles("", { name: "pack-b", version: "2" }));
  await writeFile(path.join(env.projectPlugins, "pack-b", ".origin.yaml"), "url: [broken\n");
  const results = await manager.updateAll(consenting());
  assert.equal(results.length, 2, "the copied folder has no update path and is skipped");
  const byName = Object.fromEntries(
    results.map((r) => ("error" in r ? [r.name, r.error] : [r.pack.name, r.changed])),
  );
  assert.equal(byName["pack-a"], true);
  assert.match(String(byName["pack-b"]), /\.origin\.yaml:\d+:\d+: invalid YAML/);
});

test("remove takes the whole pack away, named by itself or by its only plugin", async () => {
  await using env = await packEnv();
  const repo = await repos.create("goner", packFiles(2, "g"));
  const single = await repos.create("islet-plugin-solo", pluginFiles("inner/solo"));
  const manager = env.manager();
  await manager.add({ source: repo.fileUrl, scope: "global" }, consenting());
  await manager.add({ source: single.fileUrl, scope: "project" }, consenting());
  const removed = await manager.remove("goner");
  assert.deepEqual(removed.plugins, ["g1", "g2"]);
  const solo = await manager.remove("solo"); // its only plugin's name
  assert.equal(solo.name, "solo");
  assert.equal(solo.scope, "project");
  assert.deepEqual((await loads(env)).names, ["keeper"]);
  assert.deepEqual(
    (await manager.list()).map((p) => p.name),
    ["keeper"],
  );
  assert.ok(!(await state(env)).some((l) => /\.islet-/.test(l)), "no dot-folder left");
});
