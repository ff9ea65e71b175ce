/**
 * A skill the model loads through the Skill tool sets the rest of that turn as `/NAME` does, with
 * Claude Code's meaning: its `allowed-tools` rules run without a question (nothing else is taken
 * away: the Skill tool is still there for the next skill), its `disallowed-tools` are withheld;
 * the next user turn is back to the usual questions.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import type { AgentEvent } from "../../core/events.ts";
import { createEngine } from "../../engine/bootstrap.ts";
import { tempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOpenAI } from "../../providers/testing/index.ts";

test("a Skill-loaded allowed-tools pre-approves its rules for the turn; disallowed-tools withholds", async () => {
  const dirs = tempDir("islet-skill-limits-");
  dirs.write({
    "home/skills/tidy/SKILL.md":
      "---\ndescription: Tidy up\nallowed-tools: Bash(touch:*), Read\n---\nTouch files.",
    "home/skills/no-shell.md": "---\ndescription: No shell\ndisallowed-tools: Bash\n---\nNo shell.",
    "work/a.txt": "a\n",
  });
  const model = await startFakeOpenAI([
    { toolCalls: [{ id: "s1", name: "Skill", arguments: { skill: "tidy" } }] },
    {
      toolCalls: [
        { id: "b1", name: "Bash", arguments: { command: "touch done.txt" } },
        { id: "b2", name: "Bash", arguments: { command: "touch pwned.txt && rm a.txt" } },
        { id: "b3", name: "Bash", arguments: { command: "rm a.txt" } },
      ],
    },
    { toolCalls: [{ id: "s2", name: "Skill", arguments: { skill: "no-shell" } }] },
    { text: ["Tidied."] },
    { toolCalls: [{ id: "b4", name: "Bash", arguments: { command: "touch later.txt" } }] },
    { text: ["Asked."] },
  ]);
  // Nobody to ask: what runs is what was pre-approved.
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    plugins: {},
    flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
    warn: () => {},
  });
  const offered = (i: number): string[] =>
    ((model.chatRequests[i].body as { tools?: { function: { name: string } }[] }).tools ?? [])
      .map((t) => t.function.name)
      .sort();
  try {
    const events: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => events.push(e) });
    await conv.submit("tidy up");
    const results = new Map(
      events.flatMap((e) => (e.type === "tool_result" ? [[e.id, e] as const] : [])),
    );
    assert.equal(results.get("b1")?.error, false, results.get("b1")?.output);
    assert.ok(existsSync(dirs.path("work/done.txt")), "Bash(touch:*) ran without a question");
    assert.equal(results.get("b2")?.error, true, "every command of the line must be covered");
    assert.ok(!existsSync(dirs.path("work/pwned.txt")));
    assert.match(results.get("b3")?.output ?? "", /needs approval and nobody could be asked/);
    assert.ok(existsSync(dirs.path("work/a.txt")));
    // Nothing was taken away: the model could load the next skill, which then withheld Bash.
    assert.ok(offered(1).includes("Skill") && offered(1).includes("Bash"), offered(1).join(","));
    assert.ok(!offered(3).includes("Bash"), offered(3).join(","));

    await conv.submit("one more");
    assert.ok(offered(4).includes("Bash"), "a new turn is not limited by the last one's skill");
    assert.ok(!existsSync(dirs.path("work/later.txt")), "nor pre-approved by it");
    await conv.close();
  } finally {
    await engine.close();
    await model.close();
    dirs.remove();
  }
});
