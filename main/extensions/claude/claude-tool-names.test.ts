/**
 * A Claude Code plugin written for Claude's tool names and fields, in real turns against the
 * loopback model: a hookify-like PreToolUse rule on `tool_input.file_path` blocks a Write to .env,
 * a hook's `updatedInput` in Claude's fields rewrites a Read, a PostToolUse hook on `Edit|Write`
 * gets the model's call ids and Claude's `tool_response`, and an agent listing Claude's `Edit,
 * MultiEdit, LS` patches a file (its WebFetch, which Islet lacks, is one warning).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { startEngineRig, type EngineRig } from "../../engine/testing.ts";
import { formatProblem } from "../../host/problem.ts";

const node = JSON.stringify(process.execPath);

/** Hookify's way: rules in the project's .claude/hookify.*.local.md, read by a plugin script. */
const PRE_TOOL_USE = `
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
const input = JSON.parse(readFileSync(0, "utf8"));
const dir = path.join(process.env.CLAUDE_PROJECT_DIR, ".claude");
const FILE_TOOLS = ["Edit", "Write", "MultiEdit"];
for (const name of readdirSync(dir).filter((n) => /^hookify\\..*\\.local\\.md$/.test(n))) {
  const text = readFileSync(path.join(dir, name), "utf8");
  const field = /field: (\\S+)/.exec(text)[1];
  const pattern = /pattern: (\\S+)/.exec(text)[1];
  const message = text.split("---")[2].trim();
  if (!FILE_TOOLS.includes(input.tool_name)) continue;
  const value = input.tool_input[field];
  if (typeof value === "string" && new RegExp(pattern).test(value)) {
    const deny = { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: message };
    process.stdout.write(JSON.stringify({ hookSpecificOutput: deny }));
    process.exit(0);
  }
}
process.stdout.write("{}");
`;

const RULE = `---
name: block-env-writes
enabled: true
event: file
action: block
conditions:
  - field: file_path
    operator: regex_match
    pattern: \\.env$
---
Do not write .env files: secrets stay out of the repository.
`;

const hooks = {
  description: "A rule engine for file writes, a Read redirect and a log of edits",
  hooks: {
    PreToolUse: [
      {
        hooks: [
          { type: "command", command: `${node} \${CLAUDE_PLUGIN_ROOT}/hooks/pretooluse.mjs` },
        ],
      },
      {
        matcher: "Read",
        hooks: [
          {
            type: "command",
            command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"b.txt"}}}'`,
          },
        ],
      },
    ],
    PostToolUse: [
      {
        matcher: "Edit|Write",
        hooks: [
          {
            type: "command",
            command: `cat >> "$CLAUDE_PROJECT_DIR/post.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/post.jsonl"`,
          },
        ],
      },
    ],
  },
};

const AGENT = `---
name: editor
description: Makes small edits to existing files
tools: Read, Edit, MultiEdit, LS, WebFetch, Bash(git:*)
model: inherit
color: green
---
You make small, careful edits.
`;

interface Body {
  tools?: { function: { name: string } }[];
}

describe("Claude's tool names and fields in a plugin's hooks and agents", () => {
  let rig: EngineRig;

  before(async () => {
    rig = await startEngineRig({
      prefix: "islet-claude-tool-names-",
      files: {
        "home/plugins/guard-kit/.claude-plugin/plugin.json": JSON.stringify({
          name: "guard-kit",
          version: "0.1.0",
          description: "Guards file writes and edits",
        }),
        "home/plugins/guard-kit/hooks/hooks.json": JSON.stringify(hooks),
        "home/plugins/guard-kit/hooks/pretooluse.mjs": PRE_TOOL_USE,
        "home/plugins/guard-kit/agents/editor.md": AGENT,
        "work/.claude/hookify.env-guard.local.md": RULE,
        "work/a.txt": "file a\n",
        "work/b.txt": "file b\n",
      },
      script: [
        {
          toolCalls: [
            { id: "call_env", name: "Write", arguments: { path: ".env", content: "KEY=secret\n" } },
            { id: "call_notes", name: "Write", arguments: { path: "notes.txt", content: "one\n" } },
            { id: "call_read", name: "Read", arguments: { path: "a.txt" } },
          ],
        },
        { text: ["Written."] },
        { toolCalls: [{ id: "call_look", name: "Read", arguments: { path: "b.txt" } }] },
        {
          toolCalls: [
            {
              id: "call_patch",
              name: "Patch",
              arguments: { path: "b.txt", old_string: "file b", new_string: "file B" },
            },
          ],
        },
        { text: ["Patched."] },
      ],
      plugins: {},
    });
  });

  after(() => rig.close());

  const posted = (): Record<string, unknown>[] =>
    readFileSync(rig.dirs.path("work/post.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it("a hookify-like rule on file_path blocks .env; updatedInput and tool_use_id work", async () => {
    const { dirs } = rig;
    const { conv, events } = await rig.open();
    const r = await conv.submit("write the files");
    assert.ok(r.kind === "turn" && r.outcome.status === "done", JSON.stringify(r));
    const result = (id: string) => {
      const e = events.find((x) => x.type === "tool_result" && x.id === id);
      assert.ok(e?.type === "tool_result", `no result for ${id}`);
      return e;
    };

    const env = result("call_env");
    assert.equal(env.error, true);
    assert.match(env.output, /Do not write \.env files/);
    assert.ok(!existsSync(dirs.path("work/.env")), ".env was written");
    assert.equal(result("call_notes").error, false);
    assert.equal(readFileSync(dirs.path("work/notes.txt"), "utf8"), "one\n");
    // updatedInput named Claude's file_path: Read ran on b.txt.
    assert.match(result("call_read").output, /file b/);

    // PostToolUse on Write with the model's call id (whether a blocked call fires it is not
    // this test's business); Read does not match "Edit|Write".
    const ids = posted().map((p) => p.tool_use_id);
    assert.ok(!ids.includes("call_read") && !ids.includes(""), ids.join());
    const write = posted().find((p) => p.tool_use_id === "call_notes");
    assert.ok(write, ids.join());
    assert.equal(write.tool_name, "Write");
    assert.deepEqual(write.tool_input, { file_path: "notes.txt", content: "one\n" });
    const response = write.tool_response as Record<string, unknown>;
    assert.equal(response.filePath, dirs.path("work/notes.txt"));
    assert.equal(response.success, true);
    await conv.close();
  });

  it("an agent listing Edit, MultiEdit, LS patches a file; WebFetch is one warning", async () => {
    const { dirs, model, warnings } = rig;
    const plugin = rig.engine.declarative.claudePlugins?.plugins.find(
      (p) => p.name === "guard-kit",
    );
    const mine = (plugin?.warnings ?? []).map(formatProblem).filter((w) => w.includes("editor.md"));
    assert.equal(mine.length, 1, mine.join("\n"));
    assert.match(mine[0], /WebFetch/);
    assert.ok(!warnings.some((w) => w.includes("editor.md")), "the plugin's, not said at start");

    const { conv } = await rig.open();
    const switched = await conv.submit("/agent guard-kit:editor");
    assert.equal(switched.kind, "command");
    const r = await conv.submit("capitalise b");
    assert.ok(r.kind === "turn" && r.outcome.status === "done", JSON.stringify(r));

    const offered = ((model.chatRequests[2].body as Body).tools ?? []).map((t) => t.function.name);
    for (const t of ["Read", "Patch", "Ls", "Bash"]) assert.ok(offered.includes(t), offered.join());
    assert.ok(!offered.includes("Write"), offered.join());
    assert.equal(readFileSync(dirs.path("work/b.txt"), "utf8"), "file B\n");

    // The PostToolUse hook matched on "Edit" and read Claude's fields.
    const edit = posted().at(-1)!;
    assert.equal(edit.tool_name, "Edit");
    assert.equal(edit.tool_use_id, "call_patch");
    assert.deepEqual(edit.tool_input, {
      file_path: "b.txt",
      old_string: "file b",
      new_string: "file B",
    });
    assert.equal((edit.tool_response as Record<string, unknown>).filePath, dirs.path("work/b.txt"));
    await conv.close();
  });
});
