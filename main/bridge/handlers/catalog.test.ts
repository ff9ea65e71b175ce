/**
 * `catalog/*` on a real bridge host: the catalogs a user adds in settings (a file and a URL on a
 * loopback server), each one's state, and the one-line refusals.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { appSettingsFile } from "../../config/app-settings.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { BridgeError } from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import type { CatalogView } from "../schemas/packs.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

const DEFAULT = `packs:
  - name: alpha
    description: The default pack
    url: https://example.com/alpha
    tags: [claude-code, review]
`;
const EXTRA = `packs:
  - name: beta
    description: An extra pack
    url: https://example.com/beta
    tags: [review]
    author: Me
  - name: broken
    description: no url
`;
const REMOTE = `packs:\n  - name: gamma\n    url: owner/gamma\n    tags: [remote]\n`;

describe("bridge: plugin catalogs", () => {
  let dirs: TempDir;
  let host: BridgeHost;
  let client: RecordingClient;
  let other: RecordingClient;
  let server: http.Server;
  let url: string;

  before(async () => {
    dirs = tempDir("islet-bridge-catalog-");
    dirs.write({ "default.yaml": DEFAULT, "extra.yaml": EXTRA, "work/.keep": "" });
    server = http.createServer((_req, res) => res.end(REMOTE));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/c.yaml`;
    host = await openBridgeHost({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      catalog: { defaultFile: dirs.path("default.yaml") },
      host: {
        host: "browser",
        versions: { node: process.versions.node, electron: null, chrome: null },
      },
    });
    client = recordingClient(host.service);
    other = recordingClient(host.service);
  });

  after(async () => {
    await host.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    dirs.remove();
  });

  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => assert.fail("expected a refusal"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof BridgeError);
    return err.problem.title;
  };

  it("lists the default catalog alone at first", async () => {
    const view = (await client.call("catalog/list", undefined)) as CatalogView;
    assert.deepEqual(
      view.packs.map((p) => [p.name, p.installed]),
      [["alpha", null]],
    );
    assert.deepEqual(view.tags, ["claude-code", "review"]);
    assert.equal(view.catalogs[0].kind, "default");
    assert.equal(view.file, appSettingsFile(dirs.path("home")));
  });

  it("adds a file and a URL catalog to settings; every window hears of it", async () => {
    await client.call("catalog/add", { source: dirs.path("extra.yaml") });
    const view = (await client.call("catalog/add", { source: ` ${url} ` })) as CatalogView;
    assert.deepEqual(
      view.packs.map((p) => [p.name, p.catalog]),
      [
        ["alpha", dirs.path("default.yaml")],
        ["beta", dirs.path("extra.yaml")],
        ["gamma", url],
      ],
    );
    const [, extra, remote] = view.catalogs;
    assert.deepEqual(
      [extra.state, extra.entries, extra.problems],
      ["ok", 1, [`${dirs.path("extra.yaml")}:7: packs[1] "broken": url: missing`]],
    );
    assert.deepEqual([remote.kind, remote.state, remote.entries], ["url", "ok", 1]);
    assert.deepEqual(view.tags, ["review", "claude-code", "remote"]);
    const saved = JSON.parse(readFileSync(appSettingsFile(dirs.path("home")), "utf8")) as {
      catalogs: string[];
    };
    assert.deepEqual(saved.catalogs, [dirs.path("extra.yaml"), url]);
    assert.deepEqual(other.of("catalog/changed"), [{ cause: "catalogs" }, { cause: "catalogs" }]);
  });

  it("refuses what is not a path or an http(s) URL, and a remove of what is not there", async () => {
    assert.equal(
      await failure(client.call("catalog/add", { source: "ftp://example.com/c.yaml" })),
      'catalogs: "ftp://example.com/c.yaml": expected a file path or an http(s) URL',
    );
    assert.match(
      await failure(client.call("catalog/remove", { source: "/nowhere.yaml" })),
      /^catalogs: "\/nowhere\.yaml" is not in .*settings\.json$/,
    );
  });

  it("removes a catalog: its packs go from the list", async () => {
    const view = (await client.call("catalog/remove", {
      source: dirs.path("extra.yaml"),
    })) as CatalogView;
    assert.deepEqual(
      view.packs.map((p) => p.name),
      ["alpha", "gamma"],
    );
    assert.deepEqual(
      view.catalogs.map((c) => c.source),
      [dirs.path("default.yaml"), url],
    );
  });
});
