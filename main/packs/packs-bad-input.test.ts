/**
 * Bad input to `add`, `update` and `remove`: each is one line saying what is wrong,
 * leaves both plugins dirs and grants.json exactly as they were, and the installed plugins still
 * load. Real repositories, served over file://, git daemon and smart HTTP.
 */
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import {
  gitRepos,
  packFiles,
  pluginFiles,
  startGitDaemon,
  startGitHttp,
  type GitHttpServer,
  type GitRepos,
  type GitServer,
  type WorkRepo,
} from "./testing/git-servers.ts";
import { consenting, loads, packEnv, state, type PackEnv } from "./testing/pack-env.ts";

let repos: GitRepos;
let daemon: GitServer;
let http: GitHttpServer;
let pack: WorkRepo;

before(async () => {
  repos = await gitRepos();
  pack = await repos.create("islet-plugin-tools", {
    ...packFiles(2, "tool", "tools"),
    "README.md": "a pack\n",
    "notes.txt": "not a plugin\n",
  });
  await repos.create("escaper", { ...pluginFiles("inside"), escape: { symlink: "../../.." } });
  await repos.create("empty", { "README.md": "nothing here\n", "docs/a.md": "a\n" });
  await repos.create("private", pluginFiles(""));
  daemon = await startGitDaemon(repos.served);
  http = await startGitHttp(repos.served, { token: "right-token" });
});
after(async () => {
  await http.close();
  await daemon.close();
  await repos.close();
});

/** `run` fails with one line matching `pattern`, and nothing changed or stopped loading. */
async function refused(
  env: PackEnv,
  run: () => Promise<unknown>,
  pattern: RegExp,
): Promise<string> {
  const before = await state(env);
  let message = "";
  await assert.rejects(run, (err: Error) => {
    assert.equal(err.name, "PackError", err.stack);
    message = err.message;
    return true;
  });
  assert.match(message, pattern);
  assert.ok(!message.includes("\n"), `one line: ${message}`);
  assert.deepEqual(await state(env), before, "nothing left behind");
  const load = await loads(env);
  assert.deepEqual(load.errors, []);
  assert.ok(load.names.includes("keeper"), "the installed plugin still loads");
  return message;
}

const add = (env: PackEnv, source: string, more: Record<string, unknown> = {}, extraEnv = {}) =>
  env.manager(extraEnv).add({ source, scope: "global", ...more }, consenting());

test("malformed URLs and sources", async () => {
  await using env = await packEnv();
  const cases: [string, RegExp][] = [
    ["", /no source given/],
    ["https://", /not a valid URL|no host/],
    ["https:///repo.git", /no host|not a valid URL|names no repository/],
    ["ftp://example.com/repo.git", /unsupported URL scheme ftp:/],
    ["ext::sh -c touch% /tmp/islet-pwned", /transport helpers/],
    ["https://someone:hunter2@example.com/repo.git", /carries a password or token/],
    ["http://exa mple.com/repo.git", /spaces|not a valid URL/],
    ["https://example.com/repo.git\nsecond", /control characters/],
    ["-uoops", /looks like an option/],
    ["just some words", /neither a git URL/],
    ["./no/such/folder", /no folder at/],
    ["https://example.com/", /names no repository/],
    ["https://example.com/r.git?x=1", /no \?query/],
  ];
  for (const [source, pattern] of cases) {
    const message = await refused(env, () => add(env, source), pattern);
    assert.ok(!message.includes("hunter2"), "a password is never echoed");
  }
});

test("unreachable remotes", async () => {
  await using env = await packEnv();
  const closed = await startGitDaemon(repos.served);
  const port = closed.port;
  await closed.close();
  await refused(
    env,
    () => add(env, `git://127.0.0.1:${port}/x.git`),
    /cannot reach git:\/\/127\.0\.0\.1/,
  );
  await refused(
    env,
    () => add(env, `http://127.0.0.1:${port}/x.git`),
    /cannot reach http:\/\/127\.0\.0\.1/,
  );
  await refused(
    env,
    () => add(env, "file:///no/such/repo.git"),
    /no git repository at file:\/\/\/no\/such\/repo\.git/,
  );
  await refused(
    env,
    () => add(env, daemon.url("missing")),
    /no git repository at git:.*missing\.git: remote error: no such repository/,
  );
});

test("auth failures say what was tried, never the values, and hold tokens back from other hosts", async () => {
  await using env = await packEnv();
  const url = http.url("private");
  const none = await refused(env, () => add(env, url), /access denied/);
  assert.match(none, /tried no credentials, git credential fill/);
  const wrong = await refused(
    env,
    () => add(env, url, {}, { GIT_TOKEN: "wrong-token-value", GITHUB_TOKEN: "gh-secret-value" }),
    /tried no credentials, GIT_TOKEN, git credential fill; GITHUB_TOKEN is only sent to github\.com/,
  );
  assert.ok(!/wrong-token-value|gh-secret-value/.test(wrong));
  // The server saw the wrong GIT_TOKEN (that is what it is for) but never GITHUB_TOKEN.
  assert.ok(http.requests.some((r) => r.secret === "wrong-token-value"));
  assert.ok(
    !http.requests.some((r) => r.secret === "gh-secret-value"),
    "GITHUB_TOKEN went to a non-GitHub host",
  );
});

test("refs that do not exist, and refs that are not refs", async () => {
  await using env = await packEnv();
  await refused(
    env,
    () => add(env, pack.fileUrl, { ref: "no-such-branch" }),
    /ref "no-such-branch" does not exist in file:/,
  );
  await refused(
    env,
    () => add(env, daemon.url(pack.name), { ref: "deadbeef12" }),
    /no such branch, tag or commit/,
  );
  await refused(
    env,
    () => add(env, pack.fileUrl, { ref: "--upload-pack=touch /tmp/x" }),
    /--ref: .* is not a valid/,
  );
  await refused(env, () => add(env, pack.fileUrl, { ref: "main..HEAD" }), /not a valid branch/);
});

test("subpaths that escape the repository: .., absolute, a symlink, missing, a file", async () => {
  await using env = await packEnv();
  const url = pack.fileUrl;
  await refused(env, () => add(env, url, { subpath: "../x" }), /leads outside the repository/);
  await refused(
    env,
    () => add(env, url, { subpath: "tools/../../x" }),
    /leads outside the repository/,
  );
  await refused(env, () => add(env, url, { subpath: "/etc" }), /not an absolute one/);
  await refused(
    env,
    () => add(env, daemon.url("escaper"), { subpath: "escape" }),
    /leads outside .* through a symlink/,
  );
  await refused(env, () => add(env, url, { subpath: "nope" }), /--subpath nope does not exist/);
  await refused(env, () => add(env, url, { subpath: "notes.txt" }), /is a file/);
  await refused(
    env,
    () => add(env, path.join(pack.dir, "tools"), { subpath: ".." }),
    /leads outside/,
  );
});

test("a symlink anywhere in the pack that leads outside it is refused", async () => {
  await using env = await packEnv();
  const linked = await repos.create("linked", {
    ...pluginFiles("greet"),
    "greet/secret.txt": { symlink: "/etc/hostname" },
  });
  await refused(
    env,
    () => add(env, linked.fileUrl),
    /greet\/secret\.txt is a symlink leading outside the pack/,
  );
  const local = path.join(env.root, "local-linked");
  await mkdir(local, { recursive: true });
  await refused(env, () => add(env, linked.dir), /symlink leading outside/);
});

test("repositories without any plugin", async () => {
  await using env = await packEnv();
  await refused(
    env,
    () => add(env, daemon.url("empty")),
    /no plugin in git:.*empty\.git: expected plugin\.yaml/,
  );
  await refused(
    env,
    () => add(env, daemon.url("empty"), { subpath: "docs" }),
    /no plugin in git:.*empty\.git under docs/,
  );
});

test("name clashes with what is installed, in either home", async () => {
  await using env = await packEnv();
  // The folder exists.
  await refused(env, () => add(env, pack.fileUrl, { name: "keeper" }), /already exists/);
  // A plugin of the same name in the other home.
  const clash = await repos.create("clash", pluginFiles("sub/keeper"));
  await refused(
    env,
    () => env.manager().add({ source: clash.fileUrl, scope: "project" }, consenting()),
    /plugin "keeper" is already installed in the global plugins/,
  );
  // A pack of the same name in the other home.
  await mkdir(path.join(env.projectPlugins, "tools"), { recursive: true });
  await writeFile(
    path.join(env.projectPlugins, "tools", "plugin.yaml"),
    'description: "hand-made"\n',
  );
  await writeFile(path.join(env.projectPlugins, "tools", "index.ts"), "export {};\n");
  await refused(
    env,
    () => add(env, pack.fileUrl),
    /a pack named "tools" is already installed in the workspace's plugins/,
  );
  // Names that are not folder names.
  await refused(
    env,
    () => add(env, pack.fileUrl, { name: "../up" }),
    /--name: "\.\.\/up" is not a usable folder name/,
  );
  await refused(env, () => add(env, pack.fileUrl, { name: ".hidden" }), /not a usable folder name/);
});

test("a plugin that does not build, an SDK the host lacks, a refused consent, a repo with its own .origin.yaml", async () => {
  await using env = await packEnv();
  const broken = await repos.create("broken", {
    ...pluginFiles("good"),
    ...pluginFiles("bad", { code: "export function beforeChat( {\n" }),
  });
  await refused(
    env,
    () => add(env, broken.fileUrl),
    /plugin "bad" does not build: broken\/bad\/index\.ts:\d+:\d+: /,
  );
  const future = await repos.create(
    "future",
    pluginFiles("", { name: "future", yaml: 'sdk: "9.0.0"\n' }),
  );
  await refused(
    env,
    () => add(env, future.fileUrl),
    /plugin "future": plugin requires SDK ~9\.0\.0, host has/,
  );
  await refused(
    env,
    () => env.manager().add({ source: pack.fileUrl, scope: "global" }, consenting(false)),
    /tools was not installed: the install was not accepted/,
  );
  const sneaky = await repos.create("sneaky", {
    ...pluginFiles(""),
    ".origin.yaml": "url: https://example.com/x.git\nsubpath: x\n",
  });
  await refused(env, () => add(env, sneaky.fileUrl), /has its own \.origin\.yaml/);
});

test("a half-written or hand-edited .origin.yaml: update names the file and field; the pack alone fails to load", async () => {
  await using env = await packEnv();
  const manager = env.manager();
  await manager.add({ source: pack.fileUrl, scope: "global" }, consenting());
  const file = path.join(env.globalPlugins, "tools", ".origin.yaml");
  const good = await readFile(file, "utf8");
  const edits: [string, RegExp][] = [
    [
      good.slice(0, good.indexOf("commit:") + 12),
      /\.origin\.yaml: commit: expected a full commit hash/,
    ],
    [good.replace(/url: .*/, "url: ext::sh -c evil"), /\.origin\.yaml: url: .*transport helpers/],
    [good.replace(/url: .*/, `url: ${env.root}`), /\.origin\.yaml: url: a folder, not a git URL/],
    [good.replace(/url: .*/, "url: [1, 2"), /\.origin\.yaml:\d+:\d+: invalid YAML/],
    [`${good}ref: --upload-pack=x\n`, /\.origin\.yaml: ref: .*not a valid/],
    [
      good.replace(/installed_at: .*/, "installed_at: yesterday"),
      /\.origin\.yaml: installed_at: expected a time/,
    ],
    [`${good}added_at: [tidy]\n`, /\.origin\.yaml: added_at: expected a map of plugin names/],
    [`${good}added_at:\n  tidy: soon\n`, /\.origin\.yaml: added_at\.tidy: expected a time/],
    ["- just\n- a list\n", /\.origin\.yaml: \(top\): expected a map/],
  ];
  for (const [text, pattern] of edits) {
    await writeFile(file, text);
    const before = await state(env);
    await assert.rejects(manager.update("tools", consenting()), (err: Error) => {
      assert.match(err.message, pattern);
      assert.ok(!err.message.includes("\n"));
      return true;
    });
    assert.deepEqual(await state(env), before);
  }
  // A subpath leading out: the loader refuses this pack alone, keeper still loads.
  await writeFile(file, `${good}subpath: ../..\n`);
  const load = await loads(env);
  assert.ok(load.names.includes("keeper"));
  assert.ok(!load.names.includes("tool1"));
  assert.equal(load.errors.length, 1);
  assert.match(load.errors[0], /\.origin\.yaml: subpath: expected a folder inside the pack/);
  await assert.rejects(
    manager.update("tools", consenting()),
    /\.origin\.yaml: subpath: .*leads outside/,
  );
});

test("remove: something not installed, and one plugin of a pack of several", async () => {
  await using env = await packEnv();
  const manager = env.manager();
  await refused(
    env,
    () => manager.remove("nothing-here"),
    /no plugin or pack named "nothing-here" is installed/,
  );
  await manager.add({ source: pack.fileUrl, scope: "global" }, consenting());
  await refused(
    env,
    () => manager.remove("tool1"),
    /"tool1" is one of the 2 plugins of pack tools \(tool1, tool2\): remove the whole pack/,
  );
  await refused(
    env,
    () => manager.update("keeper", consenting()),
    /keeper was not installed from git/,
  );
});

test("a cancelled install, and a machine without git", async () => {
  await using env = await packEnv();
  const abort = new AbortController();
  abort.abort();
  await refused(
    env,
    () =>
      env
        .manager()
        .add({ source: pack.fileUrl, scope: "global" }, consenting(true, { signal: abort.signal })),
    /clone of file:.* was cancelled/,
  );
  await refused(
    env,
    () => add(env, pack.fileUrl, {}, { PATH: "/nonexistent" }),
    /git was not found on PATH/,
  );
});
