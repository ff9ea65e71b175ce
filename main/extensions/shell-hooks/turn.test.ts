/**
 * Shell hooks in real turns: real commands through the shell, a loopback model server, the real
 * engine. A PreToolUse hook blocks a tool (exit 2, stderr as the reason), another rewrites its
 * arguments (JSON updatedInput), UserPromptSubmit adds context from plain stdout, a Stop hook keeps
 * the model going once, a failing hook is a notice, each run shows in the hook timeline, and
 * closing the conversation runs SessionEnd.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { AgentEvent } from "../../core/events.ts";
import { startEngineRig, type EngineRig } from "../../engine/testing.ts";
import { NOBODY } from "../../host/questions.ts";

type Trace = Extract<AgentEvent, { type: "hook_trace" }>;

const claudeHooks = {
  hooks: {
    UserPromptSubmit: [
      {
        hooks: [
          {
            type: "command",
            command:
              'cat > "$CLAUDE_PROJECT_DIR/prompt-input.json"; echo "Remember: the codeword is heron."',
          },
        ],
      },
    ],
    PreToolUse: [
      {
        matcher: "Grep",
        hooks: [{ type: "command", command: "echo 'no grepping here' >&2; exit 2" }],
      },
      { matcher: "Ls|Glob", hooks: [{ type: "command", command: "echo broken >&2; exit 1" }] },
    ],
  },
};

const isletYaml = `
PreToolUse:
  - matcher: "^Rea"
    hooks:
      - command: >-
          echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"path":"b.txt"}}}'
SessionEnd:
  - hooks:
      - command: 'cat > "$CLAUDE_PROJECT_DIR/end-input.json"'
Stop:
  - hooks:
      - command: >-
          input=$(cat); case "$input" in *'"stop_hook_active":true'*) exit 0;; esac;
          echo '{"decision":"block","reason":"Also say goodbye."}'
`;

describe("shell hooks in a turn", () => {
  let rig: EngineRig;

  before(async () => {
    rig = await startEngineRig({
      prefix: "islet-shell-hooks-",
      files: {
        "work/a.txt": "file a\n",
        "work/b.txt": "file b\n",
        "home/config/hooks/guard.json": JSON.stringify(claudeHooks),
        "home/config/hooks/more.yaml": isletYaml,
      },
      script: [
        {
          toolCalls: [
            { id: "call_read", name: "Read", arguments: { path: "a.txt" } },
            { id: "call_grep", name: "Grep", arguments: { pattern: "file" } },
            { id: "call_ls", name: "Ls", arguments: {} },
          ],
        },
        { text: ["Done."] },
        { text: ["Goodbye."] },
      ],
      questions: NOBODY,
    });
  });

  after(() => rig.close());

  it("blocks, rewrites, adds context, keeps the model going, and shows each run", async () => {
    const { dirs, model, warnings } = rig;
    assert.deepEqual(warnings, []);
    const { conv, events } = await rig.open();
    const result = await conv.submit("read a.txt and grep");
    assert.ok(result.kind === "turn" && result.outcome.status === "done");

    // UserPromptSubmit got Claude's fields on stdin, CLAUDE_PROJECT_DIR in its environment.
    const input = JSON.parse(readFileSync(dirs.path("work/prompt-input.json"), "utf8")) as Record<
      string,
      unknown
    >;
    assert.equal(input.hook_event_name, "UserPromptSubmit");
    assert.equal(input.prompt, "read a.txt and grep");
    assert.equal(input.session_id, conv.id);
    assert.equal(input.cwd, dirs.path("work"));
    assert.ok(String(input.transcript_path).endsWith(`sessions/claude/${conv.id}.jsonl`));

    // Its plain stdout reached the model with the prompt.
    const first = JSON.stringify(model.chatRequests[0].body);
    assert.ok(first.includes("Remember: the codeword is heron."), first);

    const results = events.filter((e) => e.type === "tool_result");
    const byId = new Map(results.map((r) => [r.id, r]));
    // updatedInput rewrote Read's path; exit 2 blocked Grep with stderr as the reason;
    // exit 1 is a non-blocking error: Ls ran.
    assert.match(byId.get("call_read")!.output, /file b/);
    assert.equal(byId.get("call_grep")!.error, true);
    assert.match(byId.get("call_grep")!.output, /guard\.json:PreToolUse.*no grepping here/);
    assert.equal(byId.get("call_ls")!.error, false);
    const notices = events.filter((e) => e.type === "notice").map((e) => e.text);
    assert.ok(
      notices.some(
        (t) => t.includes("guard.json:PreToolUse") && t.includes("exited with 1: broken"),
      ),
      notices.join("\n"),
    );

    // The Stop hook blocked once: its reason went to the model, which answered again.
    assert.equal(model.chatRequests.length, 3);
    assert.ok(JSON.stringify(model.chatRequests[2].body).includes("Also say goodbye."));
    assert.equal(result.outcome.text, "Goodbye.");

    // The timeline shows each command's run and what it changed.
    const entries = events
      .filter((e): e is Trace => e.type === "hook_trace")
      .flatMap((t) => t.entries);
    const of = (source: string) => entries.filter((e) => e.source === source);
    assert.ok(of("guard.json:PreToolUse").some((e) => e.changed.includes("block")));
    assert.ok(of("more.yaml:PreToolUse").some((e) => e.changed.includes("arguments")));
    assert.ok(of("guard.json:UserPromptSubmit").some((e) => e.changed.includes("message")));
    const skipped = of("guard.json:PreToolUse").find((e) => e.status === "skipped");
    assert.match(skipped?.detail ?? "", /matcher "Grep" does not match Read/);
    const stops = of("more.yaml:Stop").map((e) => e.changed);
    assert.deepEqual(stops, [[], ["message"], []]);

    // Closing the conversation runs SessionEnd with its reason.
    await conv.close();
    const end = JSON.parse(readFileSync(dirs.path("work/end-input.json"), "utf8")) as Record<
      string,
      unknown
    >;
    assert.equal(end.hook_event_name, "SessionEnd");
    assert.equal(end.reason, "other");
    assert.equal(end.session_id, conv.id);
  });
});
