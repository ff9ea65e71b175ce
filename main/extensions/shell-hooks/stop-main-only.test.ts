/**
 * Stop, SessionStart and UserPromptSubmit belong to the main conversation, as in Claude Code: when
 * a Task's sub-agent answers, only SubagentStop runs. Real shell hooks write what they were given
 * to a marker file; the sub-agent's answer must not add a Stop (nor a start or prompt) line.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { createEngine } from "../../engine/bootstrap.ts";
import { YES_FOR_THIS_RUN } from "../../host/questions.ts";
import { tempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOpenAI } from "../../providers/testing/index.ts";

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
  const dirs = tempDir("islet-stop-main-");
  const model = await startFakeOpenAI([
    {
      toolCalls: [
        { id: "call_task", name: "Task", arguments: { subagent_type: "helper", prompt: "Sum up" } },
      ],
    },
    { text: ["sub-agent answer"] },
    { text: ["All done."] },
  ]);
  dirs.write({
    "work/a.txt": "a\n",
    "home/config/hooks/record.json": JSON.stringify(hooks),
    "home/config/agents/helper.md": "---\ndescription: Helps\ntools: Read\n---\nYou help.\n",
    "home/config/providers.yaml": `default: { provider: main, model: m }\nproviders:\n  main: { type: openai-compatible, base_url: ${model.url} }\n`,
  });
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    questions: YES_FOR_THIS_RUN,
    warn: () => {},
  });
  try {
    const conv = await engine.open({ emit: () => {} });
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
    await engine.close();
    await model.close();
    dirs.remove();
  }
});
