/**
 * The app's side of a trusted folder whose runnable parts changed: Settings → Workspace shows it
 * held back, why, and the changes as what trusting it again enables; trusting it again there
 * confirms them and brings the changed MCP server in live.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { NOBODY } from "../../host/questions.ts";
import { tempDir } from "../../code-plugins/loader/testing.ts";
import { openBridgeHost } from "../host.ts";
import type { WorkspaceTrustView } from "../schemas/trust.ts";
import { recordingClient } from "../testing.ts";

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

test("a trusted folder whose MCP command changed shows held back with the change; trusting again confirms it", async () => {
  const dirs = tempDir("islet-bridge-trust-changes-");
  dirs.write({ "home/.keep": "", "work/.islet/config/mcp/spy.yaml": "command: /bin/false\n" });
  try {
    const first = await openHost(dirs.path("home"), dirs.path("work"));
    const trusted = (await recordingClient(first.service).call("trust/set", {
      trusted: true,
    })) as WorkspaceTrustView;
    assert.equal(trusted.trusted, true);
    await first.close();

    dirs.write({ "work/.islet/config/mcp/spy.yaml": "command: /bin/true\n" });
    const host = await openHost(dirs.path("home"), dirs.path("work"));
    try {
      const c = recordingClient(host.service);
      const view = (await c.call("trust/get", undefined)) as WorkspaceTrustView;
      assert.equal(view.trusted, false);
      assert.match(view.why, /changed since you trusted it: trust it again to confirm/);
      assert.deepEqual(view.asks, [
        "changed since you trusted it: MCP server in .islet/config/mcp/spy.yaml (command) now runs `/bin/true` (was `/bin/false`)",
      ]);
      assert.deepEqual(host.engine.extensions.mcpServers.names(), []);

      const again = (await c.call("trust/set", { trusted: true })) as WorkspaceTrustView;
      assert.equal(again.trusted, true);
      assert.deepEqual(host.engine.extensions.mcpServers.names(), ["spy"]);
    } finally {
      await host.close();
    }
  } finally {
    dirs.remove();
  }
});
