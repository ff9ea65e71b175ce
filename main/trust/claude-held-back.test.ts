/**
 * An untrusted folder's notice names what its Claude Code plugins hold back: their hooks (by
 * event), MCP servers and language servers (by name), plugin by plugin, on a plugin in the shape of the
 * marketplaces' (hooks/hooks.json, .mcp.json, the manifest's inline hooks and servers).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveHomes } from "../config/homes.ts";
import { formatProblem, type Problem } from "../host/problem.ts";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { resolveWorkspaceTrust } from "./workspace-trust.ts";

test("the untrusted-folder notice names each Claude plugin's held-back hooks and MCP servers", async () => {
  const dirs = tempDir("islet-claude-held-");
  try {
    const hook = (cmd: string) => [{ hooks: [{ type: "command", command: cmd }] }];
    dirs.write({
      "work/.islet/plugins/guard/.claude-plugin/plugin.json": JSON.stringify({
        name: "guard",
        hooks: { hooks: { SessionStart: hook("echo hi") } },
        mcpServers: { tickets: { command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/t.js"] } },
      }),
      "work/.islet/plugins/guard/hooks/hooks.json": JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "python3 x.py" }] }],
          Stop: hook("python3 stop.py"),
        },
      }),
      "work/.islet/plugins/guard/.mcp.json": JSON.stringify({
        mcpServers: { github: { command: "npx", args: ["-y", "gh-mcp"] } },
      }),
      "work/.islet/plugins/guard/.lsp.json": JSON.stringify({
        go: { command: "gopls", extensionToLanguage: { ".go": "go" } },
      }),
      "work/.islet/plugins/guard/commands/check.md": "---\ndescription: Check\n---\nCheck.\n",
      // Only commands: nothing of it is held back, so it is not named.
      "work/.islet/plugins/notes/.claude-plugin/plugin.json": '{ "name": "notes" }',
      "work/.islet/plugins/notes/commands/note.md": "Note $ARGUMENTS.\n",
    });
    const problems: Problem[] = [];
    const trust = await resolveWorkspaceTrust({
      homes: resolveHomes({ home: dirs.path("home"), workdir: dirs.path("work") }),
      warn: (p) => problems.push(p),
    });
    assert.equal(trust.trusted, false);
    assert.deepEqual(trust.heldBack, [
      "Claude plugin guard's hooks (PreToolUse, Stop, SessionStart), MCP servers (github, tickets) and language servers (go) from .islet/plugins/guard/",
    ]);
    const notice = problems.map(formatProblem).join("\n");
    assert.match(
      notice,
      /held back: Claude plugin guard's hooks \(PreToolUse, Stop, SessionStart\), MCP servers \(github, tickets\) and language servers \(go\)/,
    );
    assert.doesNotMatch(notice, /notes/);
  } finally {
    dirs.remove();
  }
});
