/**
 * SubagentStop in a real turn: a Task's sub-agent answers, the user's SubagentStop hook (matched
 * on the agent's name) gets Claude's fields on stdin and blocks once with a reason, the sub-agent
 * goes on with that reason and the Task returns its second answer; a hook matching another agent
 * never runs.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startEngineRig } from "../../engine/testing.ts";
import { helperAgentFiles, START_HELPER } from "./testing.ts";

const hooks = {
  hooks: {
    SubagentStop: [
      {
        matcher: "helper",
        hooks: [
          {
            type: "command",
            command:
              'input=$(cat); echo "$input" >> "$CLAUDE_PROJECT_DIR/subagent-stop.jsonl"; ' +
              'case "$input" in *\'"stop_hook_active":true\'*) exit 0;; esac; ' +
              "echo 'Also mention b.txt.' >&2; exit 2",
          },
        ],
      },
      { matcher: "other", hooks: [{ type: "command", command: "echo wrong agent >&2; exit 1" }] },
    ],
  },
};

test("SubagentStop hooks run when a Task's sub-agent answers and can keep it going", async () => {
  const rig = await startEngineRig({
    prefix: "islet-subagent-stop-",
    files: helperAgentFiles("subagent.json", hooks),
    script: [
      START_HELPER,
      { text: ["first answer"] },
      { text: ["second answer, with b.txt"] },
      { text: ["All done."] },
    ],
  });
  const { dirs, model, warnings } = rig;
  try {
    const { conv, events } = await rig.open();
    const r = await conv.submit("Use the helper");
    assert.equal(r.kind === "turn" && r.outcome.text, "All done.");

    // The sub-agent's second request carries the hook's reason as its next prompt.
    assert.equal(model.chatRequests.length, 4);
    assert.match(JSON.stringify(model.chatRequests[2].body), /Also mention b\.txt\./);
    const task = events.find((e) => e.type === "tool_result" && e.id === "call_task");
    assert.ok(task?.type === "tool_result" && task.error === false);
    assert.equal(task.output, "second answer, with b.txt");

    const inputs = readFileSync(dirs.path("work/subagent-stop.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      inputs.map((i) => [
        i.hook_event_name,
        i.stop_hook_active,
        i.agent_type,
        i.session_id,
        i.last_assistant_message,
      ]),
      [
        ["SubagentStop", false, "helper", conv.id, "first answer"],
        ["SubagentStop", true, "helper", conv.id, "second answer, with b.txt"],
      ],
    );
    assert.equal(inputs[0].cwd, dirs.path("work"));
    assert.deepEqual(
      warnings.filter((w) => /SubagentStop/.test(w)),
      [],
      "no warning that SubagentStop is not fired, and the other agent's hook never ran",
    );
    await conv.close();
  } finally {
    await rig.close();
  }
});
