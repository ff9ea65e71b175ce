/**
 * `/output-style` with a Claude Code plugin's style (fixtures/code-review: Terse) and a home's
 * (config/output-styles/): listed, chosen, its body in the system text the loopback model gets
 * (in place of the agent's prompt, or after it with keep-coding-instructions), and chosen again
 * when the session is reopened.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createEngine } from "../../engine/bootstrap.ts";
import { YES_FOR_THIS_RUN } from "../../host/questions.ts";
import { tempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOpenAI } from "../../providers/testing/index.ts";
import { formatProblem } from "../../host/problem.ts";

const FIXTURE = path.join(import.meta.dirname, "..", "claude", "fixtures", "code-review");

const TEACHER =
  "---\nname: Teacher\ndescription: Explains as it goes\nkeep-coding-instructions: true\n---\n\n" +
  "After each change, explain why in one sentence.\n";

test("/output-style lists, switches and keeps the style; the model gets its system text", async () => {
  const dirs = tempDir("islet-output-style-");
  cpSync(FIXTURE, dirs.path("home/plugins/code-review"), { recursive: true });
  dirs.write({ "home/config/output-styles/teacher.md": TEACHER, "work/a.txt": "a\n" });
  const model = await startFakeOpenAI([
    { text: ["one"] },
    { text: ["two"] },
    { text: ["three"] },
    { text: ["four"] },
  ]);
  const warnings: string[] = [];
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    plugins: {},
    questions: YES_FOR_THIS_RUN,
    flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
    warn: (p) => warnings.push(formatProblem(p)),
  });
  const system = (i: number): string => {
    const body = model.chatRequests[i].body as { messages: { role: string; content: string }[] };
    return body.messages
      .filter((m) => m.role === "system")
      .map((m) => m.content)
      .join("\n");
  };
  try {
    const agentPrompt = engine.agents.get("default")!.systemPrompt.trim().split("\n")[0];
    assert.ok(agentPrompt.length > 0);
    const conv = await engine.open({ emit: () => {} });
    const listed = await conv.submit("/output-style");
    assert.ok(listed.kind === "command");
    assert.deepEqual(listed.output.split("\n"), [
      "* default — The agent's own system prompt.",
      "  Teacher — Explains as it goes",
      "  code-review:Terse — Short answers, no preamble",
    ]);

    await conv.submit("hello");
    assert.ok(system(0).includes(agentPrompt));
    assert.doesNotMatch(system(0), /as few words/);

    const switched = await conv.submit("/output-style terse");
    assert.equal(
      switched.kind === "command" && switched.output,
      "Output style: code-review:Terse.",
    );
    await conv.submit("hello again");
    assert.match(system(1), /Answer in as few words as correctness allows\./);
    assert.ok(
      !system(1).includes(agentPrompt),
      "a style without keep-coding-instructions replaces it",
    );

    await conv.submit("/output-style Teacher");
    await conv.submit("and again");
    assert.match(system(2), /explain why in one sentence/);
    assert.ok(system(2).includes(agentPrompt), "keep-coding-instructions keeps the agent's prompt");
    assert.doesNotMatch(system(2), /as few words/);
    await conv.close();

    const reopened = await engine.open({ sessionId: conv.id, emit: () => {} });
    await reopened.submit("after reopening");
    assert.match(system(3), /explain why in one sentence/);
    await assert.rejects(reopened.submit("/output-style nope"), /unknown output style "nope"/);
    await reopened.close();
    assert.deepEqual(warnings, []);
  } finally {
    await engine.close();
    await model.close();
    dirs.remove();
  }
});
