/**
 * `islet serve`'s server with a real engine behind it: the token, Host and Origin guards, the
 * static files, and the bridge over a real WebSocket (calls, bad frames, hot-reload events).
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { WebSocket } from "ws";
import { openBridgeHost, type BridgeHost } from "../bridge/host.ts";
import { pluginFiles, tempDir, type TempDir } from "../code-plugins/loader/testing.ts";
import { assertRendererBuilt, startServer, type RunningServer } from "./server.ts";
import { connectSocket } from "./testing.ts";

const TOKEN = "t0k3n-for-tests";

/** A GET with whatever Host header the test wants (fetch will not let us forge it). */
function get(
  port: number,
  path: string,
  host = `127.0.0.1:${port}`,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const connect = (port: number, opts: { token?: string; origin?: string } = {}) =>
  connectSocket(port, { token: opts.token ?? TOKEN, origin: opts.origin });

describe("islet serve: server and WebSocket bridge", () => {
  let dirs: TempDir;
  let renderer: TempDir;
  let host: BridgeHost;
  let server: RunningServer;

  before(async () => {
    dirs = tempDir("islet-serve-");
    dirs.write(pluginFiles("home/plugins/greeter", 'description: "Greets"\n'));
    dirs.write({ "work/.keep": "" });
    renderer = tempDir("islet-serve-ui-");
    renderer.write({
      "index.html": "<!doctype html><title>Islet</title>",
      "assets/app.js": "export {};",
      "assets/help.html": "<!doctype html><title>Help</title>",
    });
    dirs.write({ "outside.txt": "secret" });
    host = await openBridgeHost({
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
      rendererDir: renderer.root,
      token: TOKEN,
    });
  });

  after(async () => {
    await server.close();
    await host.close();
    dirs.remove();
    renderer.remove();
  });

  it("prints a loopback URL that carries the token", () => {
    assert.equal(server.url, `http://127.0.0.1:${server.port}/?token=${TOKEN}`);
  });

  it("serves the page only with the token, with the CSP and no caching", async () => {
    const page = await get(server.port, `/?token=${TOKEN}`);
    assert.equal(page.status, 200);
    assert.match(page.body, /<title>Islet/);
    assert.match(String(page.headers["content-security-policy"]), /script-src 'self'/);
    assert.match(String(page.headers["content-security-policy"]), /frame-ancestors 'none'/);
    assert.equal(page.headers["cache-control"], "no-store");
    for (const path of ["/", "/index.html", "/?token=wrong", `/?token=${TOKEN}x`]) {
      const refused = await get(server.port, path);
      assert.equal(refused.status, 401, path);
      assert.match(refused.body, /needs its access token; open the URL that `islet serve` printed/);
    }
  });

  it("needs the token for the page however its path is spelled, and for every other page", async () => {
    const spellings = [
      "/index.html/",
      "/%69ndex.html",
      "/index%2Ehtml",
      "//index.html",
      "/./index.html",
      "/assets/../index.html",
      "/assets/%2e%2e/index.html",
      "/assets/help.html",
      "/assets//help.html/",
      "/INDEX.HTML",
    ];
    for (const path of spellings) {
      const refused = await get(server.port, path);
      assert.equal(refused.status, 401, `${path}: ${refused.body}`);
      assert.doesNotMatch(refused.body, /<title>/, path);
    }
    assert.equal((await get(server.port, `/%69ndex.html?token=${TOKEN}`)).status, 200);
    assert.match((await get(server.port, `/assets/help.html?token=${TOKEN}`)).body, /Help/);
  });

  it("serves assets, and nothing outside the renderer folder", async () => {
    const js = await get(server.port, "/assets/app.js");
    assert.equal(js.status, 200);
    assert.match(String(js.headers["content-type"]), /^text\/javascript/);
    // Refused before or after the token check, never served, even with the token.
    for (const path of ["/../outside.txt", "/%2e%2e/outside.txt", "/assets/../../outside.txt"]) {
      for (const query of ["", `?token=${TOKEN}`]) {
        const refused = await get(server.port, path + query);
        assert.ok([401, 404].includes(refused.status), `${path}${query}: ${refused.status}`);
        assert.doesNotMatch(refused.body, /secret/);
      }
    }
  });

  it("answers only to its own host names (DNS rebinding)", async () => {
    const rebound = await get(server.port, `/?token=${TOKEN}`, `evil.example:${server.port}`);
    assert.equal(rebound.status, 403);
    assert.equal(
      (await get(server.port, `/?token=${TOKEN}`, `localhost:${server.port}`)).status,
      200,
    );
  });

  it("refuses sockets without the token, from other origins, or on other paths", async () => {
    await assert.rejects(connect(server.port, { token: "nope" }), /HTTP 403/);
    await assert.rejects(connect(server.port, { origin: "https://evil.example" }), /HTTP 403/);
    const other = new WebSocket(`ws://127.0.0.1:${server.port}/other?token=${TOKEN}`, {
      origin: `http://127.0.0.1:${server.port}`,
    });
    const status = await new Promise<number>((resolve) =>
      other.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)),
    );
    assert.equal(status, 404);
  });

  it("carries calls both ways with the contract's validation", async () => {
    const client = await connect(server.port);
    try {
      const info = await client.call("app/info");
      assert.equal(info.ok, true);
      assert.equal((info.result as { host: string }).host, "browser");
      const list = (await client.call("plugins/list")) as {
        result: { backend: { name: string; reason: string }; plugins: { name: string }[] };
      };
      assert.deepEqual(list.result.backend, {
        name: "quickjs",
        reason: "chosen by --plugin-runtime",
      });
      assert.deepEqual(
        list.result.plugins.map((p) => p.name),
        ["greeter"],
      );
      const bad = (await client.call("plugins/list", { all: 1 })) as {
        ok: boolean;
        problem: { source: string; title: string; cause: string };
      };
      assert.equal(bad.ok, false);
      assert.deepEqual(
        [bad.problem.source, bad.problem.title],
        ["plugins/list", "invalid payload"],
      );
      assert.match(bad.problem.cause, /expected undefined, received object/);
      assert.deepEqual((await client.call("exec/shell")).problem, {
        source: "bridge",
        title: 'unknown call "exec/shell"',
      });
      client.ws.send("{not json");
      const garbled = (await client.next()) as { id: null; problem: { title: string } };
      assert.equal(garbled.id, null);
      assert.equal(garbled.problem.title, "bad frame");
    } finally {
      client.ws.close();
    }
  });

  it("pushes plugins/changed when a plugin is edited on disk (hot reload)", async () => {
    const client = await connect(server.port);
    try {
      dirs.write({
        "home/plugins/greeter/index.ts":
          "export const beforeChat = (): undefined => undefined;\nexport const afterResponse = (): undefined => undefined;\n",
      });
      const frame = await client.next();
      assert.equal(frame.event, "plugins/changed");
      assert.equal((frame.payload as { cause: string }).cause, "file-change");
      assert.deepEqual(
        (frame.payload as { reports: { name: string; ok: boolean }[] }).reports.map((r) => [
          r.name,
          r.ok,
        ]),
        [["greeter", true]],
      );
      const list = (await client.call("plugins/list")) as {
        result: { plugins: { hooks: string[] }[] };
      };
      assert.deepEqual(list.result.plugins[0].hooks, ["beforeChat", "afterResponse"]);
    } finally {
      client.ws.close();
    }
  });

  it("says what to do when the UI is not built", () => {
    assert.throws(
      () => assertRendererBuilt(dirs.path("nowhere")),
      /the UI is not built .*run `npm run build` first/,
    );
  });
});
