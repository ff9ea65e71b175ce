/**
 * SubagentStart in a real turn: a Task's sub-agent starts, the user's SubagentStart hook (matched
 * on the agent's name) gets Claude's fields on stdin and its additionalContext reaches the
 * sub-agent before its task; a hook matching another agent never runs.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { createEngine } from "../../engine/bootstrap.ts";
import { YES_FOR_THIS_RUN } from "../../host/questions.ts";
import { tempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOpenAI } from "../../providers/testing/index.ts";
import { formatProblem } from "../../host/problem.ts";

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
  const dirs = tempDir("islet-subagent-start-");
  const model = await startFakeOpenAI([
    {
      toolCalls: [
        { id: "call_task", name: "Task", arguments: { subagent_type: "helper", prompt: "Sum up" } },
      ],
    },
    { text: ["summed up"] },
    { text: ["All done."] },
  ]);
  dirs.write({
    "work/a.txt": "a\n",
    "home/config/hooks/subagent.json": JSON.stringify(hooks),
    "home/config/agents/helper.md": "---\ndescription: Helps\ntools: Read\n---\nYou help.\n",
    "home/config/providers.yaml": `default: { provider: main, model: m }\nproviders:\n  main: { type: openai-compatible, base_url: ${model.url} }\n`,
  });
  const warnings: string[] = [];
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    questions: YES_FOR_THIS_RUN,
    warn: (p) => warnings.push(formatProblem(p)),
  });
  try {
    const conv = await engine.open({ emit: () => {} });
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
    await engine.close();
    await model.close();
    dirs.remove();
  }
});
