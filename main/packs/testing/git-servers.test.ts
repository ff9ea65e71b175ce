/** The test git servers serve what they should, and the HTTP one refuses requests without its token. */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import {
  credentialHome,
  gitRepos,
  gitTestEnv,
  packFiles,
  startGitDaemon,
  startGitHttp,
} from "./git-servers.ts";

const run = promisify(execFile);

async function clone(url: string, env: Record<string, string> = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-clone-"));
  try {
    await run("git", ["clone", "--quiet", url, path.join(dir, "c")], { env: gitTestEnv(env) });
    return {
      ok: true as const,
      read: (f: string) => readFile(path.join(dir, "c", f), "utf8"),
      clean: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    return { ok: false as const, message: (err as Error).message };
  }
}

test("a repository with commits, a tag and a branch is served over file://, git daemon and smart HTTP", async () => {
  await using repos = await gitRepos();
  const repo = await repos.create("pack", packFiles(2));
  await repo.tag("v1.0.0");
  await repo.commit("Second", { "plugin1/index.ts": "export {};\n" });
  await repo.branch("next");
  await repo.commit("On next", { "NEXT.md": "next\n" });
  assert.match(await repo.git("ls-remote", repo.bare), /refs\/heads\/next/);

  await using daemon = await startGitDaemon(repos.served);
  await using http = await startGitHttp(repos.served);
  for (const url of [repo.fileUrl, daemon.url("pack"), http.url("pack")]) {
    const c = await clone(url);
    assert.ok(c.ok, `${url}: ${c.ok ? "" : c.message}`);
    assert.equal(await c.read("plugin1/index.ts"), "export {};\n");
    assert.match(await c.read("plugin2/plugin.yaml"), /plugin2 test plugin/);
    await c.clean();
  }
  assert.ok(http.requests.some((r) => r.url.includes("git-upload-pack")));
});

test("the HTTP server with a token answers 401 without it and serves Basic or a credential helper with it", async () => {
  await using repos = await gitRepos();
  await repos.create("private", packFiles(1));
  await using http = await startGitHttp(repos.served, { token: "tok-123" });

  const anonymous = await clone(http.url("private"));
  assert.equal(anonymous.ok, false);
  assert.ok(http.requests.every((r) => !r.authorized));

  const header = `Authorization: Basic ${Buffer.from("x:tok-123").toString("base64")}`;
  const withHeader = await clone(http.url("private"), {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "http.extraHeader",
    GIT_CONFIG_VALUE_0: header,
  });
  assert.ok(withHeader.ok);
  await withHeader.clean();

  const home = await mkdtemp(path.join(tmpdir(), "islet-cred-"));
  try {
    const env = await credentialHome(home, http.url("private"), "someone", "tok-123");
    const viaHelper = await clone(http.url("private"), env);
    assert.ok(viaHelper.ok, viaHelper.ok ? "" : viaHelper.message);
    await viaHelper.clean();
    assert.ok(http.requests.some((r) => r.user === "someone" && r.authorized));
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test("closing the daemon stops it: the port no longer answers", async () => {
  await using repos = await gitRepos();
  await repos.create("gone", packFiles(1));
  const daemon = await startGitDaemon(repos.served);
  const url = daemon.url("gone");
  assert.ok((await clone(url)).ok);
  await daemon.close();
  const after = await clone(url);
  assert.equal(after.ok, false);
});
