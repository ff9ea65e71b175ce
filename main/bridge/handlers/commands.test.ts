/** `commands/list` against a real engine with real plugins: built-in, plugin and failed commands. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import type { CommandList } from "../schemas/commands.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

const command = (name: string, hints: string) => `export function command() {
  return { name: "${name}", description: "The ${name} command.", hints: ${hints} };
}
export function executeCommand(args) { return { output: args }; }
`;

describe("bridge: commands/list on a real engine", () => {
  let dirs: TempDir;
  let host: BridgeHost;
  let client: RecordingClient;

  before(async () => {
    dirs = tempDir("islet-bridge-commands-");
    dirs.write({
      "home/plugins/deploy-command/plugin.yaml": 'description: "Deploys"\n',
      "home/plugins/deploy-command/index.ts": command("deploy", '"[environment]"'),
      "home/plugins/greet-command/plugin.yaml": 'description: "Greets"\n',
      // Broken now; it declared /greet the last time it loaded (the plugin cache remembers).
      "home/plugins/greet-command/index.ts": `${command("greet", '["name"]')}\nexport function (`,
      "home/cache/plugins/commands.json": JSON.stringify({ "greet-command": "greet" }),
      "home/config/commands/review.md":
        "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS.",
      "home/skills/pdf/SKILL.md":
        "---\ndescription: Work with PDFs\nargument-hint: [file]\n---\nUse pdftotext.",
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

  it("lists built-in, custom, skill and plugin commands with hints, and a failed plugin's command as failed", async () => {
    const { commands } = (await client.call("commands/list", undefined)) as CommandList;
    const byName = new Map(commands.map((c) => [c.name, c]));
    assert.deepEqual(
      commands.map((c) => c.name),
      [...commands.map((c) => c.name)].sort((a, b) => a.localeCompare(b)),
      "sorted by name",
    );
    assert.deepEqual(byName.get("agent"), {
      name: "agent",
      description: "Show the agents, or switch to one.",
      hints: "[name]",
      source: "builtin",
      kind: "command",
      status: "ok",
      error: null,
    });
    assert.ok(byName.has("help") && byName.has("compact"));
    assert.deepEqual(byName.get("deploy"), {
      name: "deploy",
      description: "The deploy command.",
      hints: "[environment]",
      source: "deploy-command",
      kind: "command",
      status: "ok",
      error: null,
    });
    assert.deepEqual(byName.get("review"), {
      name: "review",
      description: "Review a file",
      hints: "<file>",
      source: "custom",
      kind: "command",
      status: "ok",
      error: null,
    });
    assert.deepEqual(byName.get("pdf"), {
      name: "pdf",
      description: "Work with PDFs",
      hints: "[file]",
      source: "custom",
      kind: "skill",
      status: "ok",
      error: null,
    });
    const greet = byName.get("greet");
    assert.equal(greet?.status, "failed");
    assert.equal(greet?.source, "greet-command");
    assert.match(greet?.error ?? "", /index\.ts/);
  });
});
