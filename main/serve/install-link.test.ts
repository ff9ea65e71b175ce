/**
 * `islet serve`'s `/install?…` against a real engine and a real git server on 127.0.0.1: behind
 * the token and the Host check like the page; a good link becomes the page with the link in its
 * fragment and nothing fetched; a hostile one is one line and nothing fetched, cloned or written
 * (the git server saw no request, the plugins folder is as it was, no marker file appeared). The
 * engine checks a link's values again when the page installs through it.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { request } from "node:http";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { openBridgeHost, type BridgeHost } from "../bridge/host.ts";
import { tempDir, type TempDir } from "../code-plugins/loader/testing.ts";
import {
  gitRepos,
  pluginFiles,
  startGitHttp,
  type GitHttpServer,
  type GitRepos,
} from "../packs/testing/git-servers.ts";
import { startServer, type RunningServer } from "./server.ts";
import { connectSocket } from "./testing.ts";

const TOKEN = "link-t0k3n";

function get(
  port: number,
  target: string,
  opts: { host?: string; method?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: target,
        method: opts.method ?? "GET",
        headers: { host: opts.host ?? `127.0.0.1:${port}` },
      },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const enc = encodeURIComponent;

describe("islet serve: install links", () => {
  let dirs: TempDir;
  let host: BridgeHost;
  let server: RunningServer;
  let repos: GitRepos;
  let git: GitHttpServer;
  let private_: GitHttpServer;
  let marker: string;
  let repoUrl: string;

  const plugins = () => path.join(dirs.path("home"), "plugins");
  const listing = async () => (existsSync(plugins()) ? (await readdir(plugins())).sort() : []);

  before(async () => {
    dirs = tempDir("islet-link-");
    dirs.write({ "work/.keep": "", "home/plugins/.keep": "" });
    const renderer = dirs.path("ui");
    dirs.write({ "ui/index.html": "<!doctype html><title>Islet</title>" });
    marker = dirs.path("pwned");
    repos = await gitRepos();
    await repos.create("islet-plugin-linked", pluginFiles("tools/linked"));
    git = await startGitHttp(repos.served);
    repoUrl = git.url("islet-plugin-linked");
    private_ = await startGitHttp(repos.served, { token: "s3cret" });
    host = await openBridgeHost({
      // The user's token for any host: a link's server must never be offered it.
      env: { ...process.env, GIT_TOKEN: "s3cret" },
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      plugins: { pluginRuntime: "quickjs" },
      host: {
        host: "browser",
        versions: { node: process.versions.node, electron: null, chrome: null },
      },
    });
    server = await startServer({
      service: host.service,
      port: 0,
      rendererDir: renderer,
      token: TOKEN,
    });
  });

  after(async () => {
    await server?.close();
    await host?.close();
    await git?.close();
    await private_?.close();
    await repos?.close();
    dirs?.remove();
  });

  it("needs the token and this server's Host, like the page", async () => {
    const link = `source=${enc(repoUrl)}`;
    for (const target of [
      `/install?${link}`,
      `/install?token=wrong&${link}`,
      `/install?token=${TOKEN}x&${link}`,
    ]) {
      const r = await get(server.port, target);
      assert.equal(r.status, 401, target);
      assert.match(r.body, /needs the access token/);
      assert.equal(r.headers["location"], undefined);
    }
    for (const foreign of [
      "evil.example",
      `evil.example:${server.port}`,
      `127.0.0.1.evil.example:${server.port}`,
    ]) {
      const r = await get(server.port, `/install?token=${TOKEN}&${link}`, { host: foreign });
      assert.equal(r.status, 403, foreign);
      assert.equal(r.headers["location"], undefined);
    }
    const posted = await get(server.port, `/install?token=${TOKEN}&${link}`, { method: "POST" });
    assert.equal(posted.status, 405);
    assert.deepEqual(git.requests, [], "nothing was fetched");
  });

  it("a good link opens the page with the link in its fragment, and fetches nothing", async () => {
    const r = await get(
      server.port,
      `/install?token=${TOKEN}&source=${enc(repoUrl)}&ref=main&subpath=${enc("tools/linked")}`,
    );
    assert.equal(r.status, 303);
    const location = String(r.headers["location"]);
    const [page, fragment] = location.split("#");
    assert.equal(page, `/?token=${TOKEN}`);
    const query = new URLSearchParams(fragment.replace(/^install\?/, ""));
    assert.deepEqual(
      [...query],
      [
        ["source", repoUrl],
        ["ref", "main"],
        ["subpath", "tools/linked"],
      ],
    );
    const followed = await get(server.port, page);
    assert.equal(followed.status, 200);
    assert.deepEqual(git.requests, [], "nothing was fetched before the person said so");
    assert.deepEqual(await listing(), [".keep"]);
  });

  it("refuses hostile links in one line; nothing is fetched, cloned or written", async () => {
    const hostile: [string, RegExp][] = [
      [`source=${enc(`--upload-pack=touch ${marker}`)}`, /source: /],
      [`source=--upload-pack=touch%20${enc(marker)}`, /source: /],
      [`source=%2D%2Dupload-pack%3Dtouch%20${enc(marker)}`, /source: /],
      [`source=${enc("file:///etc")}`, /source: file:\/\//],
      [`source=${enc(`file://${repos.served}/islet-plugin-linked.git`)}`, /source: file:\/\//],
      [`source=${enc(`ext::sh -c touch% ${marker}`)}`, /source: /],
      [`source=ext::sh%20-c%20touch%25%20${enc(marker)}`, /source: /],
      [`source=${enc(repos.served)}`, /source: .*not a git URL/],
      [`source=${enc(repoUrl.replace("http://", "http://user:pw@"))}`, /source: .*credentials/],
      [`source=${enc(repoUrl)}&subpath=${enc("../../x")}`, /subpath: .*outside/],
      [`source=${enc(repoUrl)}&subpath=%2e%2e%2F%2e%2e%2Fx`, /subpath: .*outside/],
      [`source=${enc(repoUrl)}&ref=--orphan`, /ref: "--orphan"/],
      [`source=${enc(repoUrl)}&ref=%2D%2Dorphan`, /ref: "--orphan"/],
      [`source=${enc(repoUrl)}&source=${enc(repoUrl)}`, /source: given more than once/],
      [`source=${enc(repoUrl)}&name=evil`, /unknown parameter "name"/],
      [`source=${enc(repoUrl)}&ref=${"a".repeat(300)}`, /ref: longer than 200/],
      [`source=${enc(repoUrl)}&subpath=${"a".repeat(5000)}`, /too long/],
      [`ref=main`, /source: missing/],
    ];
    for (const [query, why] of hostile) {
      const r = await get(server.port, `/install?token=${TOKEN}&${query}`);
      assert.equal(r.status, 400, query);
      assert.equal(r.headers["location"], undefined, query);
      assert.match(
        r.body,
        /^Islet: this install link was refused, nothing was downloaded or installed: /,
      );
      assert.match(r.body, why, query);
      assert.equal(r.body.trimEnd().split("\n").length, 1, `one line: ${r.body}`);
    }
    // Other spellings of the path are not install links: the static rules answer them.
    for (const spelled of ["/%69nstall", "/install/", "/INSTALL", "//install"]) {
      const r = await get(server.port, `${spelled}?token=${TOKEN}&source=${enc("file:///etc")}`);
      assert.notEqual(r.status, 303, spelled);
      assert.equal(r.headers["location"], undefined, spelled);
    }
    assert.deepEqual(git.requests, []);
    assert.equal(existsSync(marker), false, "the marker file never appeared");
    assert.deepEqual(await listing(), [".keep"]);
  });

  it("the engine checks a link's values again: the page cannot install a folder through a link", async () => {
    const ws = await connectSocket(server.port, { token: TOKEN });
    try {
      const checked = await ws.call("packs/checkLink", {
        query: `source=${enc(`file://${marker}`)}`,
      });
      assert.deepEqual(checked.result, {
        link: null,
        refused:
          "source: file:// names a folder on this computer; a link can only name a remote repository",
      });
      for (const source of [
        `file://${repos.served}/islet-plugin-linked.git`,
        repos.served,
        `--upload-pack=touch ${marker}`,
      ]) {
        const r = await ws.call("packs/install", { source, scope: "global", via: "link" });
        assert.equal(r.ok, false, source);
        assert.match(JSON.stringify(r.problem), /source: /);
      }
      assert.equal(existsSync(marker), false);
      assert.deepEqual(await listing(), [".keep"]);
      assert.deepEqual(git.requests, []);
    } finally {
      await ws.close();
    }
  });

  it("a link's install asks the pack-install question saying a link asked, with source, ref and subpath; Cancel leaves nothing", async () => {
    const ws = await connectSocket(server.port, { token: TOKEN });
    try {
      const install = ws.call("packs/install", {
        source: repoUrl,
        ref: "main",
        subpath: "tools/linked",
        scope: "global",
        via: "link",
      });
      const asked = (await ws.event("question/asked")).payload as {
        id: string;
        question: Record<string, unknown>;
      };
      assert.equal(asked.question.kind, "pack-install");
      assert.equal(asked.question.via, "link");
      assert.equal(asked.question.source, repoUrl);
      assert.equal(asked.question.ref, "main");
      assert.equal(asked.question.subpath, "tools/linked");
      await ws.call("question/answer", { id: asked.id, kind: "pack-install", answer: "cancel" });
      const r = await install;
      assert.deepEqual((r.result as { status: string }).status, "cancelled");
      assert.deepEqual(await listing(), [".keep"]);
    } finally {
      await ws.close();
    }
  });

  it("a link's install never offers GIT_TOKEN to the server it names; the same URL typed in does", async () => {
    const ws = await connectSocket(server.port, { token: TOKEN });
    try {
      const url = private_.url("islet-plugin-linked");
      const r = await ws.call("packs/install", { source: url, scope: "global", via: "link" });
      assert.equal(r.ok, false);
      assert.ok(private_.requests.length > 0);
      assert.deepEqual(
        private_.requests.filter((q) => q.secret !== undefined),
        [],
        "no request carried the token",
      );
      assert.deepEqual(await listing(), [".keep"]);
      // Typed in (Add from URL), the same URL gets the token: the link's install alone holds it back.
      const typed = ws.call("packs/install", { source: url, scope: "global", name: "typed" });
      const asked = (await ws.event("question/asked")).payload as { id: string };
      assert.ok(private_.requests.some((q) => q.secret === "s3cret"));
      await ws.call("question/answer", { id: asked.id, kind: "pack-install", answer: "cancel" });
      assert.equal(((await typed).result as { status: string }).status, "cancelled");
    } finally {
      await ws.close();
    }
  });
});
