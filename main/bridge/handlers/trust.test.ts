/**
 * `trust/*` on a real host over a temp home whose workspace `.islet/` brings a project command and
 * an MCP server. Attacks: a window naming another folder (refused: the folder is the engine's), a
 * socket without the token or from another page (refused before any call). Then the Settings
 * flow: held back → trusted live → no longer trusted live, told to every window.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { NOBODY } from "../../host/questions.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { startServer, type RunningServer } from "../../serve/server.ts";
import { connectSocket } from "../../serve/testing.ts";
import { trustFile } from "../../trust/store.ts";
import type { CommandList } from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import type { WorkspaceTrustView } from "../schemas/trust.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

const TOKEN = "trust-test-token-0123456789";

/** A bridge host on a browser window's terms, with nobody to answer questions. */
const openHost = (home: string, workdir: string) =>
  openBridgeHost({
    home,
    workdir,
    questions: NOBODY,
    env: {},
    host: {
      host: "browser",
      versions: { node: process.versions.node, electron: null, chrome: null },
    },
  });

describe("trust/* on a real host", () => {
  let dirs: TempDir;
  let host: BridgeHost;
  let c: RecordingClient;
  let other: RecordingClient;
  const records = (): Record<string, { decision: string }> =>
    existsSync(trustFile(dirs.path("home")))
      ? (
          JSON.parse(readFileSync(trustFile(dirs.path("home")), "utf8")) as {
            folders: Record<string, { decision: string }>;
          }
        ).folders
      : {};

  before(async () => {
    dirs = tempDir("islet-bridge-trust-");
    dirs.write({
      "home/.keep": "",
      "elsewhere/.islet/config/commands/x.md": "---\ndescription: X\n---\nX",
      "work/.islet/config/commands/deploy.md": "---\ndescription: Deploys\n---\nDeploy it",
      "work/.islet/config/mcp/spy.yaml": "command: /bin/false\n",
    });
    host = await openHost(dirs.path("home"), dirs.path("work"));
    c = recordingClient(host.service);
    other = recordingClient(host.service);
  });
  after(async () => {
    await host.close();
    dirs.remove();
  });

  const deploy = async () =>
    ((await c.call("commands/list", undefined)) as CommandList).commands.find(
      (x) => x.name === "deploy",
    );

  it("refuses a request that names a folder: only the engine's workspace can be trusted", async () => {
    for (const request of [
      { trusted: true, folder: dirs.path("elsewhere") },
      { trusted: true, workdir: dirs.path("elsewhere") },
      { trusted: "yes" },
    ])
      await assert.rejects(c.call("trust/set", request), /trust\/set: invalid payload/);
    assert.deepEqual(records(), {}, "nothing was recorded");
    assert.equal(host.engine.trust.trusted, false);
  });

  it("shows the held-back list, trusts live, and stops trusting live", async () => {
    const before = (await c.call("trust/get", undefined)) as WorkspaceTrustView;
    assert.equal(before.folder, dirs.path("work"));
    assert.equal(before.trusted, false);
    assert.equal(before.changeable, true);
    assert.equal(before.why, "not trusted yet");
    assert.deepEqual(before.asks, [
      "MCP servers from .islet/config/mcp/",
      "commands from .islet/config/commands/",
    ]);
    assert.equal((await deploy())?.status, "held-back");

    const trusted = (await c.call("trust/set", { trusted: true })) as WorkspaceTrustView;
    assert.equal(trusted.trusted, true);
    assert.match(trusted.why, /^trusted \d{4}-\d\d-\d\d/);
    assert.equal((await deploy())?.status, "ok", "the command serves without a restart");
    assert.deepEqual(host.engine.extensions.mcpServers.names(), ["spy"]);
    assert.deepEqual(await other.next("settings/changed"), { section: "workspace" });
    await other.next("plugins/changed");
    const key = Object.keys(records());
    assert.equal(key.length, 1);
    assert.match(key[0], /work$/, "the record names the workspace and nothing else");

    const stopped = (await c.call("trust/set", { trusted: false })) as WorkspaceTrustView;
    assert.equal(stopped.trusted, false);
    assert.match(stopped.why, /^you chose not to trust it on \d{4}-\d\d-\d\d$/);
    assert.equal((await deploy())?.status, "held-back", "taken away without a restart");
    assert.deepEqual(host.engine.extensions.mcpServers.names(), []);
    assert.deepEqual(
      Object.values(records()).map((r) => r.decision),
      ["untrusted"],
      "remembered as the user's no",
    );
  });

  it("over `islet serve`, only the page's authenticated socket reaches trust/set", async () => {
    const renderer = tempDir("islet-trust-ui-");
    renderer.write({ "index.html": "<!doctype html><title>Islet</title>" });
    let server: RunningServer | null = null;
    try {
      server = await startServer({
        service: host.service,
        port: 0,
        rendererDir: renderer.root,
        token: TOKEN,
      });
      const port = server.port;
      const before = JSON.stringify(records());
      for (const opts of [
        { token: "wrong-token-0123456789abcdef" },
        { token: TOKEN, origin: "http://evil.example" },
        { token: TOKEN, origin: "null" },
      ])
        await assert.rejects(connectSocket(port, opts), /403/, JSON.stringify(opts));
      assert.equal(JSON.stringify(records()), before, "no unauthenticated socket changed trust");
      const page = await connectSocket(port, { token: TOKEN });
      const reply = await page.call("trust/get");
      assert.equal((reply.result as WorkspaceTrustView).folder, dirs.path("work"));
      await page.close();
    } finally {
      await server?.close();
      renderer.remove();
    }
  });
});

describe("trust/* when the workspace's .islet/ is the global home", () => {
  it("shows it as trusted and refuses a change in one line", async () => {
    const dirs = tempDir("islet-bridge-trust-home-");
    dirs.write({ "work/.islet/.keep": "" });
    const host = await openHost(dirs.path("work/.islet"), dirs.path("work"));
    try {
      const c = recordingClient(host.service);
      const view = (await c.call("trust/get", undefined)) as WorkspaceTrustView;
      assert.equal(view.trusted, true);
      assert.equal(view.changeable, false);
      await assert.rejects(
        c.call("trust/set", { trusted: false }),
        /its \.islet\/ is the global home, which is always trusted; open a project folder/,
      );
      assert.equal(existsSync(trustFile(dirs.path("work/.islet"))), false);
    } finally {
      await host.close();
      dirs.remove();
    }
  });
});
