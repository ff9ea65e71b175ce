/**
 * Catalogs from files and URLs, merged: real files in a temp home and a real loopback HTTP server
 * (which can go away, hang, or answer with an error page).
 */
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { tempDir } from "../../code-plugins/loader/testing.ts";
import { loadCatalogs } from "./load.ts";
import { formatProblem } from "../../host/problem.ts";

const DEFAULT = `packs:
  - name: alpha
    description: The first pack
    url: https://example.com/alpha.git
    tags: [claude-code]
`;
const EXTRA = `packs:
  - name: beta
    url: git@example.com:beta.git
  - name: alpha
    url: https://example.com/not-alpha.git
  - name: broken
`;
const REMOTE = `packs:
  - name: gamma
    description: From a server
    url: https://example.com/gamma
    tags: [remote]
`;

interface Server {
  url: string;
  requests: number;
  /** What the next requests get: a catalog, an error page, or no answer at all. */
  mode: "catalog" | "error-page" | "hang";
  close(): Promise<void>;
}

async function catalogServer(): Promise<Server> {
  const hanging = new Set<http.ServerResponse>();
  const state: Server = {
    url: "",
    requests: 0,
    mode: "catalog",
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer((_req, res) => {
    state.requests++;
    if (state.mode === "hang") hanging.add(res);
    else if (state.mode === "error-page")
      res.writeHead(200, { "content-type": "text/html" }).end("<html>Sign in</html>");
    else res.writeHead(200, { "content-type": "application/yaml" }).end(REMOTE);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/catalog.yaml`;
  return state;
}

test("the default catalog, a file and a URL merge; each catalog says how it is", async () => {
  const dir = tempDir("islet-catalogs-");
  const server = await catalogServer();
  try {
    dir.write({ "default.yaml": DEFAULT, "home/extra.yaml": EXTRA });
    const set = await loadCatalogs({
      globalHome: dir.path("home"),
      defaultFile: dir.path("default.yaml"),
      sources: ["extra.yaml", server.url, dir.path("missing.yaml")],
    });
    assert.deepEqual(
      set.packs.map((p) => [p.name, p.catalog]),
      [
        ["alpha", dir.path("default.yaml")],
        ["beta", "extra.yaml"],
        ["gamma", server.url],
      ],
    );
    const [def, extra, remote, missing] = set.catalogs;
    assert.deepEqual([def.kind, def.state, def.entries], ["default", "ok", 1]);
    assert.deepEqual([extra.kind, extra.state, extra.entries], ["file", "ok", 1]);
    assert.deepEqual(extra.problems.map(formatProblem), [
      'extra.yaml:6: packs[2] "broken": url: missing',
      `extra.yaml: "alpha" (https://example.com/not-alpha.git) is also in ${dir.path("default.yaml")} (https://example.com/alpha.git); that one is listed`,
    ]);
    assert.deepEqual([remote.kind, remote.state, remote.entries], ["url", "ok", 1]);
    assert.ok(remote.fetchedAt);
    assert.equal(missing.state, "error");
    assert.equal(
      missing.error,
      `${dir.path("missing.yaml")}: cannot read the catalog (no such file)`,
    );
  } finally {
    await server.close();
    dir.remove();
  }
});

test("a URL catalog is cached: offline the last copy is listed and said to be cached", async () => {
  const dir = tempDir("islet-catalogs-");
  const server = await catalogServer();
  const url = server.url;
  const opts = { globalHome: dir.root, defaultFile: null, sources: [url] };
  try {
    const first = await loadCatalogs(opts);
    assert.equal(first.catalogs[0].state, "ok");
    // A fresh copy is used without asking the server again.
    await loadCatalogs(opts);
    assert.equal(server.requests, 1);

    // The server answers with a login page: the good copy stays.
    server.mode = "error-page";
    const page = await loadCatalogs({ ...opts, refresh: true });
    assert.equal(page.catalogs[0].state, "cached");
    assert.match(page.catalogs[0].error ?? "", /something that is not a catalog/);
    assert.deepEqual(
      page.packs.map((p) => p.name),
      ["gamma"],
    );

    await server.close();
    const offline = await loadCatalogs({ ...opts, refresh: true });
    assert.deepEqual(
      offline.packs.map((p) => p.name),
      ["gamma"],
    );
    const status = offline.catalogs[0];
    assert.equal(status.state, "cached");
    assert.equal(status.fetchedAt, first.catalogs[0].fetchedAt);
    assert.match(
      status.error ?? "",
      new RegExp(
        `^${url.replace(/[.?]/g, "\\$&")}: could not fetch a fresh copy \\(connection refused\\); listing the copy from `,
      ),
    );
  } finally {
    await server.close().catch(() => undefined);
    dir.remove();
  }
});

test("a server that never answers is given up on after the time limit, in one line", async () => {
  const dir = tempDir("islet-catalogs-");
  const server = await catalogServer();
  server.mode = "hang";
  try {
    const set = await loadCatalogs({
      globalHome: dir.root,
      defaultFile: null,
      sources: [server.url],
      timeoutMs: 500,
    });
    assert.deepEqual(set.packs, []);
    assert.equal(set.catalogs[0].state, "error");
    assert.equal(
      set.catalogs[0].error,
      `${server.url}: could not fetch the catalog (no answer within 500 ms); check the URL and your network`,
    );
  } finally {
    await server.close();
    dir.remove();
  }
});
