/**
 * Installing packs from real repositories: file://, git daemon, smart HTTP with a token (GIT_TOKEN,
 * GITHUB_TOKEN for its host, `git credential fill`), tags and branches, several plugins, a
 * subpath, local folders, Claude Code plugins, npm vendoring, and the grants consent records.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import type { QuestionKind, QuestionOf, QuestionPort } from "../host/questions.ts";
import { ConsentGate } from "../code-plugins/consent/gate.ts";
import { loadPlugins } from "../code-plugins/loader/index.ts";
import {
  credentialHome,
  git,
  gitRepos,
  packFiles,
  pluginFiles,
  startGitDaemon,
  startGitHttp,
  type GitHttpServer,
  type GitRepos,
  type GitServer,
  writeRepoFiles,
} from "./testing/git-servers.ts";
import { consenting, loads, packEnv } from "./testing/pack-env.ts";

const run = promisify(execFile);
let repos: GitRepos;
let daemon: GitServer;
let http: GitHttpServer;

before(async () => {
  repos = await gitRepos();
  daemon = await startGitDaemon(repos.served);
  http = await startGitHttp(repos.served, { token: "tok-987" });
});
after(async () => {
  await http.close();
  await daemon.close();
  await repos.close();
});

const NETWORK = 'permissions:\n  network: [{ host: api.example.com, reason: "posts notes" }]\n';

/** Every file under `dir` whose content includes `needle`. */
async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await readFile(file)).includes(needle)) hits.push(file);
  }
  return hits;
}

test("a pack of several plugins over file://: origin, question, grants, and they load without asking", async () => {
  await using env = await packEnv();
  const repo = await repos.create("islet-plugin-kit", {
    ...pluginFiles("alpha", { yaml: NETWORK }),
    ...pluginFiles("beta"),
    ...pluginFiles("nested/gamma"),
  });
  const hooks = consenting();
  const pack = await env.manager().add({ source: repo.fileUrl, scope: "global" }, hooks);
  assert.equal(pack.name, "kit", "named after the URL, prefix stripped");
  assert.deepEqual(pack.plugins, ["alpha", "beta", "gamma"]);
  assert.equal(pack.origin?.url, repo.fileUrl);
  assert.equal(pack.origin?.commit, await repo.head());
  assert.equal(pack.origin?.vendored, true);
  assert.ok(Date.parse(pack.origin!.installedAt) > Date.now() - 60_000);
  const origin = await readFile(path.join(env.globalPlugins, "kit", ".origin.yaml"), "utf8");
  assert.match(origin, /^url: file:/m);
  assert.match(origin, new RegExp(`^commit: ${await repo.head()}$`, "m"));

  const [q] = hooks.asked;
  assert.equal(q.kind, "pack-install");
  assert.equal(q.kind === "pack-install" && q.commit, await repo.head());
  assert.deepEqual(
    q.plugins.map((p) => [p.name, p.permissions.map((i) => `${i.kind}:${i.target}`)]),
    [
      ["alpha", ["network:api.example.com"]],
      ["beta", []],
      ["gamma", []],
    ],
  );
  const phases = new Set(hooks.progressed.map((p) => p.phase));
  for (const phase of [
    "cloning",
    "validating",
    "building",
    "consent",
    "installing",
    "done",
  ] as const)
    assert.ok(phases.has(phase), `progress ${phase}`);

  // The gate finds alpha's request granted: nobody is asked at load, and it gets the host.
  const asked: string[] = [];
  const port: QuestionPort = {
    ask: async <K extends QuestionKind>(question: QuestionOf<K>) => {
      asked.push(question.kind);
      return "deny" as never;
    },
  };
  const gate = new ConsentGate({
    globalHome: env.homes.global,
    questions: port,
    trustedProject: true,
    warn: () => undefined,
  });
  const load = await loadPlugins(env.homes, { trustedProject: true });
  const rights = await gate.decide(load.plugins);
  await gate.settle();
  assert.deepEqual(asked, []);
  assert.deepEqual(
    rights.get("alpha")?.permissions.network?.map((n) => n.host),
    ["api.example.com"],
  );
  // The installed copy is a git checkout with no local edits.
  assert.equal(await git(path.join(env.globalPlugins, "kit"), "status", "--porcelain"), "");
});

test("git daemon: a tag, a branch, and the default branch", async () => {
  await using env = await packEnv();
  const repo = await repos.create("versions", pluginFiles("", { name: "versions", version: "1" }));
  await repo.tag("v1.0.0");
  const v2 = await repo.commit("Version 2", pluginFiles("", { name: "versions", version: "2" }));
  await repo.branch("next");
  await repo.commit("Version 3", pluginFiles("", { name: "versions", version: "3" }));
  const manager = env.manager();
  const read = (name: string) => readFile(path.join(env.globalPlugins, name, "index.ts"), "utf8");

  const tagged = await manager.add(
    { source: daemon.url("versions"), ref: "v1.0.0", name: "v-tag", scope: "global" },
    consenting(),
  );
  assert.equal(tagged.origin?.ref, "v1.0.0");
  assert.match(await read("v-tag"), /version 1/);
  await manager.add(
    { source: daemon.url("versions"), ref: "next", name: "v-next", scope: "global" },
    consenting(),
  );
  assert.match(await read("v-next"), /version 3/);
  const main = await manager.add(
    { source: daemon.url("versions"), name: "v-main", scope: "project" },
    consenting(),
  );
  assert.equal(main.origin?.commit, v2);
  assert.equal(main.scope, "project");
  assert.equal(main.dir, path.join(env.projectPlugins, "v-main"));
  const byCommit = await manager.add(
    { source: daemon.url("versions"), ref: v2.slice(0, 10), name: "v-commit", scope: "global" },
    consenting(),
  );
  assert.equal(byCommit.origin?.commit, v2);
});

test("smart HTTP with a token: GIT_TOKEN, GITHUB_TOKEN for its own host, git credential fill; the token is saved nowhere", async () => {
  await using env = await packEnv();
  await repos.create("secret-pack", pluginFiles("", { name: "secret" }));
  const url = http.url("secret-pack");
  const hooks = consenting();
  const viaGitToken = await env
    .manager({ GIT_TOKEN: "tok-987" })
    .add({ source: url, name: "a", scope: "global" }, hooks);
  assert.equal(viaGitToken.origin?.url, url);
  assert.equal(hooks.asked[0].source, url);
  assert.deepEqual(await filesContaining(viaGitToken.dir, "tok-987"), []);
  assert.deepEqual(
    await filesContaining(viaGitToken.dir, Buffer.from("git:tok-987").toString("base64")),
    [],
  );
  await rm(viaGitToken.dir, { recursive: true });

  const host = `127.0.0.1:${http.port}`;
  const viaGitHub = await env
    .manager({ GITHUB_TOKEN: "tok-987", GH_HOST: host })
    .add({ source: url, name: "b", scope: "global" }, consenting());
  assert.deepEqual(viaGitHub.plugins, ["b"]);
  assert.ok(http.requests.some((r) => r.user === "x-access-token" && r.authorized));
  await rm(viaGitHub.dir, { recursive: true });

  const credEnv = await credentialHome(env.userHome, url, "helper-user", "tok-987");
  const viaHelper = await env
    .manager(credEnv)
    .add({ source: url, name: "c", scope: "global" }, consenting());
  assert.deepEqual(viaHelper.plugins, ["c"]);
  assert.ok(http.requests.some((r) => r.user === "helper-user" && r.authorized));
  assert.deepEqual(await filesContaining(viaHelper.dir, "tok-987"), []);
});

test("--subpath: the whole repository is cloned, only the plugins under it load, and it is kept in .origin.yaml", async () => {
  await using env = await packEnv();
  const repo = await repos.create("collection", {
    ...packFiles(2, "tool", "tools"),
    ...pluginFiles("other/outside"),
    ...pluginFiles("", { name: "rootplugin" }),
  });
  const pack = await env
    .manager()
    .add({ source: repo.fileUrl, subpath: "tools", scope: "global" }, consenting());
  assert.deepEqual(pack.plugins, ["tool1", "tool2"]);
  assert.equal(pack.origin?.subpath, "tools");
  assert.match(await readFile(path.join(pack.dir, ".origin.yaml"), "utf8"), /^subpath: tools$/m);
  await readFile(path.join(pack.dir, "other", "outside", "plugin.yaml")); // cloned whole
  const load = await loads(env);
  assert.deepEqual(load.errors, []);
  assert.deepEqual(load.names.sort(), ["keeper", "tool1", "tool2"]);
});

test("a local folder (not a git repository) is copied (its subpath only with --subpath), without an update path", async () => {
  await using env = await packEnv();
  const folder = path.join(env.root, "islet-plugin-local");
  await writeRepoFiles(folder, { ...packFiles(2, "p", "set"), ...pluginFiles("else/q") });
  const manager = env.manager();
  const whole = await manager.add({ source: folder, name: "whole", scope: "global" }, consenting());
  assert.deepEqual(whole.plugins, ["p1", "p2", "q"]);
  assert.equal(whole.origin, undefined);
  await manager.remove("whole");
  const sub = await manager.add({ source: folder, subpath: "set", scope: "global" }, consenting());
  assert.equal(sub.name, "local");
  assert.deepEqual(sub.plugins, ["p1", "p2"]);
  assert.deepEqual((await readdir(sub.dir)).sort(), ["p1", "p2"]);
  await assert.rejects(manager.update("local", consenting()), /local was not installed from git/);
});

test("Claude Code plugins: plugin.json folders and marketplace.json with a relative source; a remote source is one line saying how to add it", async () => {
  await using env = await packEnv();
  const repo = await repos.create("claude-market", {
    ".claude-plugin/marketplace.json": JSON.stringify({
      name: "market",
      owner: { name: "someone" },
      plugins: [
        { name: "reviewer", source: "./plugins/reviewer", description: "Reviews" },
        { name: "far", source: { source: "github", repo: "someone/far-plugin" } },
        { name: "sneaky", source: "../../outside" },
      ],
    }),
    "plugins/reviewer/commands/review.md": "Review the code\n",
    "plugins/reviewer/hooks/hooks.json": JSON.stringify({
      hooks: {
        PostToolUse: [
          { matcher: "Write", hooks: [{ type: "command", command: "npx prettier --write ." }] },
        ],
      },
    }),
    "standalone/.claude-plugin/plugin.json": JSON.stringify({
      name: "standalone",
      description: "Alone",
    }),
    ...pluginFiles("isletone"),
  });
  const hooks = consenting();
  const pack = await env.manager().add({ source: repo.fileUrl, scope: "global" }, hooks);
  assert.deepEqual(pack.plugins, ["isletone", "reviewer", "standalone"]);
  const q = hooks.asked[0];
  const reviewer = q.plugins.find((p) => p.name === "reviewer");
  assert.equal(reviewer?.format, "claude");
  assert.deepEqual(
    reviewer?.permissions.map((i) => i.target),
    ["npx prettier --write ."],
  );
  assert.ok(
    env.warnings.some((w) =>
      /1 plugin listed from other repositories is not part of this pack: far; install one as a pack of its own with islet plugins add claude-market --plugin NAME/.test(
        w,
      ),
    ),
  );
  assert.ok(
    env.warnings.some((w) =>
      /plugin "sneaky": \.\.\/\.\.\/outside (leads outside|does not exist)/.test(w),
    ),
  );
});

test("vendoring: npm dependencies installed into the plugin (no scripts, no lockfile written); --no-vendor skips them", async () => {
  await using env = await packEnv();
  const work = await mkdtemp(path.join(env.root, "dep-"));
  await writeFile(
    path.join(work, "package.json"),
    JSON.stringify({
      name: "tiny-dep",
      version: "1.0.0",
      main: "index.js",
      scripts: { postinstall: "touch PWNED" },
    }),
  );
  await writeFile(path.join(work, "index.js"), "exports.shout = (s) => s.toUpperCase() + '!';\n");
  await run("npm", ["pack", "--pack-destination", work, "--loglevel=error"], {
    cwd: work,
    env: { ...env.env },
  });
  const tarball = await readFile(path.join(work, "tiny-dep-1.0.0.tgz"));
  const repo = await repos.create("vendored", {
    ...pluginFiles("", {
      name: "vendored",
      code: 'import { shout } from "tiny-dep";\nexport function beforeChat() { return { message: shout("hi") }; }\n',
    }),
    "package.json": JSON.stringify({
      name: "vendored",
      dependencies: { "tiny-dep": "file:./deps/tiny-dep-1.0.0.tgz" },
    }),
    "deps/tiny-dep-1.0.0.tgz": tarball,
  });
  const manager = env.manager();
  const pack = await manager.add({ source: repo.fileUrl, scope: "global" }, consenting());
  assert.match(
    await readFile(path.join(pack.dir, "node_modules", "tiny-dep", "index.js"), "utf8"),
    /toUpperCase/,
  );
  await assert.rejects(
    readFile(path.join(pack.dir, "node_modules", "tiny-dep", "PWNED")),
    "no install script ran",
  );
  await assert.rejects(readFile(path.join(pack.dir, "package-lock.json")), "no lockfile written");
  assert.equal(await git(pack.dir, "status", "--porcelain"), "", "vendoring is not a local edit");

  await assert.rejects(
    manager.add(
      { source: repo.fileUrl, name: "unvendored", vendor: false, scope: "global" },
      consenting(),
    ),
    /plugin "unvendored" does not build: unvendored\/index\.ts:1:\d+: Could not resolve "tiny-dep"/,
  );
});
