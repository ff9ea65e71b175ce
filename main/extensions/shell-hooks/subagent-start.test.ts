/**
 * SubagentStart in a real turn: a Task's sub-agent starts, the user's SubagentStart hook (matched
 * on the agent's name) gets Claude's fields on stdin and its additionalContext reaches the
 * sub-agent before its task; a hook matching another agent never runs.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startEngineRig } from "../../engine/testing.ts";
import { helperAgentFiles, START_HELPER } from "./testing.ts";

const hooks = {
  hooks: {
    SubagentStart: [
      {
        matcher: "helper",
        hooks: [
          {
            type: "command",
            command:
              'cat > "$CLAUDE_PROJECT_DIR/subagent-start.json"; ' +
              `echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"The codeword is osprey."}}'`,
          },
        ],
      },
      { matcher: "other", hooks: [{ type: "command", command: "echo wrong agent >&2; exit 1" }] },
    ],
  },
};

test("SubagentStart hooks run when a Task's sub-agent starts and give it their context", async () => {
  const rig = await startEngineRig({
    prefix: "islet-subagent-start-",
    files: helperAgentFiles("subagent.json", hooks),
    script: [START_HELPER, { text: ["summed up"] }, { text: ["All done."] }],
  });
  const { dirs, model, warnings } = rig;
  try {
    const { conv } = await rig.open();
    const r = await conv.submit("Use the helper");
    assert.equal(r.kind === "turn" && r.outcome.text, "All done.");

    // The sub-agent's first request holds the hook's context, before its task.
    const sub = JSON.stringify(model.chatRequests[1].body);
    assert.ok(sub.includes("The codeword is osprey."), sub);
    assert.ok(sub.indexOf("The codeword is osprey.") < sub.indexOf("Sum up"), sub);
    // The main conversation never saw it.
    assert.ok(!JSON.stringify(model.chatRequests[0].body).includes("osprey"));

    const input = JSON.parse(readFileSync(dirs.path("work/subagent-start.json"), "utf8")) as Record<
      string,
      unknown
    >;
    assert.equal(input.hook_event_name, "SubagentStart");
    assert.equal(input.agent_type, "helper");
    assert.equal(input.session_id, conv.id);
    assert.equal(input.cwd, dirs.path("work"));
    assert.deepEqual(
      warnings.filter((w) => /SubagentStart|wrong agent/.test(w)),
      [],
      "SubagentStart is run, and the other agent's hook never ran",
    );
    await conv.close();
  } finally {
    await rig.close();
  }
});
