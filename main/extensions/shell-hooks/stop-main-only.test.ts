/**
 * Stop, SessionStart and UserPromptSubmit belong to the main conversation, as in Claude Code: when
 * a Task's sub-agent answers, only SubagentStop runs. Real shell hooks write what they were given
 * to a marker file; the sub-agent's answer must not add a Stop (nor a start or prompt) line.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startEngineRig } from "../../engine/testing.ts";
import { helperAgentFiles, START_HELPER } from "./testing.ts";

const record = {
  type: "command",
  command: 'input=$(cat); echo "$input" >> "$CLAUDE_PROJECT_DIR/events.jsonl"',
};
const hooks = {
  hooks: Object.fromEntries(
    ["Stop", "SubagentStop", "SessionStart", "UserPromptSubmit"].map((e) => [
      e,
      [{ hooks: [record] }],
    ]),
  ),
};

test("a sub-agent's answer fires SubagentStop, not the user's Stop hooks", async () => {
  const rig = await startEngineRig({
    prefix: "islet-stop-main-",
    files: helperAgentFiles("record.json", hooks),
    script: [START_HELPER, { text: ["sub-agent answer"] }, { text: ["All done."] }],
  });
  const { dirs } = rig;
  try {
    const { conv } = await rig.open();
    const r = await conv.submit("Use the helper");
    assert.equal(r.kind === "turn" && r.outcome.text, "All done.");
    const events = readFileSync(dirs.path("work/events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { hook_event_name: string; session_id: string });
    assert.deepEqual(
      events.map((e) => [e.hook_event_name, e.session_id]),
      [
        ["SessionStart", conv.id],
        ["UserPromptSubmit", conv.id],
        ["SubagentStop", conv.id],
        ["Stop", conv.id],
      ],
    );
    await conv.close();
  } finally {
    await rig.close();
  }
});
