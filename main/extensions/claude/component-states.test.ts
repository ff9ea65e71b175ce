/**
 * A Claude plugin's parts and their states as `plugins show` and the plugin browser list them:
 * an untrusted project's hooks, MCP servers and language servers held back with why (its
 * commands, skills and agents loaded), an excluded plugin's parts excluded, a broken file failed
 * as the part it would have been, an MCP server that could not start failed with its error.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { pluginComponents, type PluginComponent } from "./component-states.ts";
import { readClaudePlugin } from "./plugin.ts";

describe("a Claude plugin's parts and their states", () => {
  let dirs: TempDir;
  const read = (heldBack: boolean) =>
    readClaudePlugin(dirs.path("guard"), { scope: "project", heldBack });
  const states = (parts: PluginComponent[]) =>
    parts.map((c) => `${c.kind} ${c.name}: ${c.state}${c.why ? ` (${c.why})` : ""}`);

  before(() => {
    dirs = tempDir("islet-claude-states-");
    dirs.write({
      "guard/.claude-plugin/plugin.json": '{ "name": "guard" }',
      "guard/commands/check.md": "---\ndescription: Check\n---\nCheck.\n",
      "guard/skills/rules/SKILL.md": "---\nname: rules\ndescription: Rules\n---\nRules.\n",
      "guard/skills/broken/SKILL.md": "---\nuser-invocable: perhaps\n---\nx\n",
      "guard/hooks/hooks.json": JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: "./stop.sh" }] }] },
      }),
      "guard/.mcp.json": JSON.stringify({ tickets: { command: "tickets-mcp" } }),
      "guard/.lsp.json": JSON.stringify({
        go: { command: "gopls", extensionToLanguage: { ".go": "go" } },
      }),
    });
  });
  after(() => dirs.remove());

  it("holds back an untrusted project's hooks, MCP and language servers, and says why", () => {
    assert.deepEqual(states(pluginComponents(read(true))), [
      "command /guard:check: loaded",
      "skill guard:rules: loaded",
      "hook Stop: ./stop.sh: held-back (this project's folder is not trusted: it does not run)",
      "mcp-server plugin_guard_tickets: held-back (this project's folder is not trusted: it does not run)",
      "lsp-server go (gopls): held-back (this project's folder is not trusted: it does not run)",
      "skill guard:broken: failed (user-invocable: Invalid input: expected boolean, received string)",
    ]);
  });

  it("marks every part of an excluded plugin excluded, and a server that could not start failed", () => {
    const excluded = { ...read(false), status: "excluded" as const };
    assert.ok(
      pluginComponents(excluded)
        .filter((c) => c.state !== "failed")
        .every((c) => c.state === "excluded"),
    );
    const parts = pluginComponents(read(false), (name) =>
      name === "plugin_guard_tickets"
        ? { status: "restarting", error: "could not start: exited with code 1 before answering" }
        : undefined,
    );
    assert.deepEqual(states(parts.filter((c) => c.kind === "mcp-server")), [
      "mcp-server plugin_guard_tickets: failed (could not start: exited with code 1 before answering)",
    ]);
  });
});
