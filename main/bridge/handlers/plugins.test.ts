/** The contract's plugin calls against a real engine and real plugin sandboxes. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { emptyContext } from "../../turn/hooks/testing.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import type { PluginList } from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

describe("bridge: plugin calls on a real engine", () => {
  let dirs: TempDir;
  let host: BridgeHost;
  let client: RecordingClient;

  before(async () => {
    dirs = tempDir("islet-bridge-");
    dirs.write({
      "home/plugins/flaky/plugin.yaml": 'description: "Always throws"\n',
      "home/plugins/flaky/index.ts":
        'export function beforeChat() { throw new Error("the flaky plugin broke"); }\n',
      "home/plugins/broken/plugin.yaml": 'description: "fine"\nonce: [yes\n',
      "work/.keep": "",
    });
    host = await openBridgeHost({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      plugins: {},
      host: {
        host: "browser",
        versions: { node: process.versions.node, electron: null, chrome: null },
      },
    });
    client = recordingClient(host.service);
  });

  after(async () => {
    await host.close();
    dirs.remove();
  });

  const list = async () => (await client.call("plugins/list", undefined)) as PluginList;

  it("reports the last fault, marks a plugin that keeps faulting errored, and restarts it", async () => {
    const [hook] = host.engine.plugins!.handlers("beforeChat");
    for (let i = 0; i < 5; i++) await hook.invoke(emptyContext()).catch(() => undefined);
    const [flaky] = (await list()).plugins;
    assert.equal(flaky.status, "errored");
    assert.equal(flaky.faults, 5);
    assert.equal(flaky.lastFault?.call, "beforeChat");
    assert.match(flaky.lastFault?.message ?? "", /threw: .*the flaky plugin broke/);
    assert.ok(Date.parse(flaky.lastFault?.at ?? "") > Date.now() - 60_000);

    const report = (await client.call("plugins/restart", { name: "flaky" })) as {
      ok: boolean;
    };
    assert.equal(report.ok, true);
    assert.equal((await list()).plugins[0].status, "active");
    assert.deepEqual(client.events.at(-1), [
      "plugins/changed",
      { cause: "restart", reports: [report] },
    ]);
  });

  it("lists a manifest that could not be read as a problem with its file, line and column", async () => {
    const { problems } = await list();
    assert.equal(problems.length, 1);
    const [problem] = problems;
    assert.equal(problem.file, dirs.path("home/plugins/broken/plugin.yaml"));
    assert.equal(problem.source, "plugins");
    assert.ok(problem.line !== undefined && problem.line >= 2, JSON.stringify(problem));
    assert.ok(problem.column !== undefined, JSON.stringify(problem));
    assert.match(problem.title, /^invalid YAML: /);
  });

  it("a restart of an unknown plugin is an error for the caller only, and a nameless one is refused", async () => {
    const before = client.events.length;
    await assert.rejects(client.call("plugins/restart", { name: "ghost" }), {
      message: 'plugins/restart: no plugin named "ghost"',
    });
    // An arbitrarily long name is cut in the reply, and nobody else hears of it.
    const long = "x".repeat(100_000);
    await assert.rejects(client.call("plugins/restart", { name: long }), (err: Error) => {
      assert.ok(err.message.length < 300, `a ${err.message.length}-character error`);
      assert.match(err.message, /^plugins\/restart: (no plugin named "x+…"|invalid payload)/);
      return true;
    });
    assert.equal(client.events.length, before, "no event was broadcast");
    await assert.rejects(
      client.call("plugins/restart", { name: "" }),
      /plugins\/restart: invalid payload/,
    );
  });
});
