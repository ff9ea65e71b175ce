/**
 * The plugin browser's list (bridge `plugins/list`) on a real engine: shell hook files and
 * Claude Code plugins beside code plugins, each with source, what it brings and its errors; an
 * edit shows after Reload.
 */
import assert from "node:assert/strict";
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { PluginList } from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";
import { pluginFiles, tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";

describe("plugin browser: shell hooks and Claude Code plugins", () => {
  let dirs: TempDir;
  let host: BridgeHost;
  let client: RecordingClient;

  before(async () => {
    dirs = tempDir("islet-ext-list-");
    cpSync(
      path.join(import.meta.dirname, "../../extensions/claude/fixtures/code-review"),
      dirs.path("home/plugins/code-review"),
      { recursive: true },
    );
    dirs.write({
      ...pluginFiles("home/plugins/hello"),
      "home/config/hooks/guard.yaml":
        "PreToolUse:\n  - matcher: Bash\n    hooks: [{ command: ./check.sh, timeout: 5 }]\nSubagentStop:\n  - hooks: [{ command: ./bye.sh }]\n",
      "home/config/hooks/broken.json": '{"hooks": {"Stop": "no"}}',
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

  it("lists hook files and Claude Code plugins beside code plugins, with source and errors", async () => {
    const data = await list();
    assert.deepEqual(
      data.plugins.map((p) => p.name),
      ["hello"],
    );
    const byName = new Map((data.extensions ?? []).map((e) => [e.name, e]));
    assert.deepEqual([...byName.keys()], ["broken.json", "guard.yaml", "code-review"]);

    const guard = byName.get("guard.yaml")!;
    assert.equal(guard.kind, "shell-hooks");
    assert.equal(guard.source, "global");
    assert.equal(guard.status, "active");
    assert.deepEqual(guard.hooks, [
      { event: "PreToolUse", matcher: "Bash", command: "./check.sh", timeoutS: 5, fires: true },
      { event: "SubagentStop", matcher: "", command: "./bye.sh", timeoutS: 60, fires: true },
    ]);
    assert.deepEqual(guard.warnings, [], "every event fires now that Task runs sub-agents");

    const broken = byName.get("broken.json")!;
    assert.equal(broken.status, "failed");
    assert.match(
      broken.errors[0],
      /broken\.json: field "hooks\.Stop": expected a list of matchers/,
    );

    const plugin = byName.get("code-review")!;
    assert.equal(plugin.kind, "claude-plugin");
    assert.equal(plugin.path, dirs.path("home/plugins/code-review"));
    assert.deepEqual(plugin.agents, ["code-review:reviewer"]);
    assert.deepEqual(plugin.commands, ["code-review:blame-line", "code-review:review"]);
    assert.deepEqual(plugin.skills, ["code-review:house-style"]);
    assert.deepEqual(plugin.mcpServers, ["plugin_code-review_notes"]);
    assert.deepEqual(plugin.outputStyles, ["code-review:terse"]);
    assert.deepEqual(
      plugin.hooks.map((h) => [h.event, h.matcher]),
      [["PreToolUse", "Grep"]],
    );
    assert.deepEqual(plugin.errors, []);
  });

  it("shows an edited hook file after Reload", async () => {
    writeFileSync(
      dirs.path("home/config/hooks/broken.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }),
    );
    await client.call("plugins/reload", undefined);
    const fixed = (await list()).extensions?.find((e) => e.name === "broken.json");
    assert.equal(fixed?.status, "active");
    assert.deepEqual(fixed?.errors, []);
  });
});
