import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { hostPermitted, pluginFetch } from "./network.ts";
import type { NetworkPermission } from "./permissions.ts";

const grant = (host: string): NetworkPermission => ({ host, reason: "test" });

test("hostPermitted: exact hosts, wildcard subdomains, ports and *", () => {
  const url = (u: string) => new URL(u);
  assert.equal(hostPermitted(url("https://api.example.com/x"), [grant("api.example.com")]), true);
  assert.equal(hostPermitted(url("https://API.example.com/x"), [grant("api.example.com")]), true);
  assert.equal(
    hostPermitted(url("https://evil.com/api.example.com"), [grant("api.example.com")]),
    false,
  );
  assert.equal(hostPermitted(url("https://a.b.example.com"), [grant("*.example.com")]), true);
  assert.equal(hostPermitted(url("https://example.com"), [grant("*.example.com")]), false);
  assert.equal(hostPermitted(url("https://notexample.com"), [grant("*.example.com")]), false);
  assert.equal(hostPermitted(url("http://127.0.0.1:8080"), [grant("127.0.0.1:8080")]), true);
  assert.equal(hostPermitted(url("http://127.0.0.1:9090"), [grant("127.0.0.1:8080")]), false);
  assert.equal(hostPermitted(url("https://x.org"), [grant("x.org:443")]), true);
  assert.equal(hostPermitted(url("http://[::1]:3000"), [grant("[::1]")]), true);
  assert.equal(hostPermitted(url("https://anything.net"), [grant("*")]), true);
  assert.equal(hostPermitted(url("https://anything.net"), []), false);
});

describe("pluginFetch against a loopback server", () => {
  let server: Server;
  let origin: string;
  const hanging: ServerResponse[] = [];
  let closedRequests = 0;

  before(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const route = new URL(req.url ?? "/", "http://x").pathname;
        if (route === "/echo") {
          res.setHeader("x-served-by", "loopback");
          res.setHeader("content-type", "application/json");
          res.end(
            JSON.stringify({
              method: req.method,
              body: Buffer.concat(chunks).toString(),
              host: req.headers.host,
              token: req.headers["x-token"] ?? null,
            }),
          );
        } else if (route === "/redirect-inside") {
          res.writeHead(302, { location: "/echo" }).end();
        } else if (route === "/redirect-outside") {
          res
            .writeHead(302, {
              location: `http://localhost:${(server.address() as AddressInfo).port}/echo`,
            })
            .end();
        } else if (route === "/big") {
          res.end("x".repeat(4096));
        } else if (route === "/hang") {
          hanging.push(res);
          res.on("close", () => closedRequests++);
        } else {
          res.writeHead(404, "Nope").end("missing");
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    for (const res of hanging) res.destroy();
    server.close();
  });

  const opts = { plugin: "weather", grants: [grant("127.0.0.1")] };
  const request = (
    path: string,
    extra: Partial<{ method: string; headers: [string, string][]; body: string }> = {},
  ) => ({
    url: `${origin}${path}`,
    method: "GET",
    headers: [] as [string, string][],
    ...extra,
  });

  test("a permitted host answers with status, headers and body; Host cannot be forged", async () => {
    const response = await pluginFetch(
      request("/echo", {
        method: "post",
        headers: [
          ["X-Token", "t1"],
          ["Host", "evil.example"],
        ],
        body: "hello",
      }),
      opts,
    );
    assert.equal(response.status, 200);
    assert.ok(response.headers.some(([k, v]) => k === "x-served-by" && v === "loopback"));
    assert.deepEqual(JSON.parse(response.body), {
      method: "POST",
      body: "hello",
      host: new URL(origin).host,
      token: "t1",
    });
    const missing = await pluginFetch(request("/nothing"), opts);
    assert.deepEqual([missing.status, missing.statusText, missing.body], [404, "Nope", "missing"]);
  });

  test("a host not in permissions.network is refused with the advice", async () => {
    await assert.rejects(
      pluginFetch(request("/echo"), { plugin: "weather", grants: [grant("api.example.com")] }),
      new RegExp(
        `^Error: plugin weather has no network permission for 127\\.0\\.0\\.1:\\d+: add it to permissions\\.network in plugin\\.yaml with a reason$`,
      ),
    );
    await assert.rejects(
      pluginFetch({ ...request("/"), url: "file:///etc/passwd" }, opts),
      /only http and https/,
    );
  });

  test("redirects are followed only to permitted hosts", async () => {
    const inside = await pluginFetch(request("/redirect-inside"), opts);
    assert.equal(inside.redirected, true);
    assert.equal(JSON.parse(inside.body).method, "GET");
    await assert.rejects(
      pluginFetch(request("/redirect-outside"), opts),
      /no network permission for localhost/,
    );
  });

  test("response size cap, timeout and abort", async () => {
    await assert.rejects(
      pluginFetch(request("/big"), { ...opts, limits: { maxResponseBytes: 1024 } }),
      /larger than/,
    );
    await assert.rejects(
      pluginFetch(request("/hang"), { ...opts, limits: { timeoutMs: 100 } }),
      /timed out after 100 ms/,
    );
    const controller = new AbortController();
    const pending = pluginFetch(request("/hang"), { ...opts, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the plugin was unloaded")), 50);
    await assert.rejects(pending, /was aborted: the plugin was unloaded/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(closedRequests, 2, "both hanging requests were closed by the client");
  });
});
