/**
 * A skill the model loads through the Skill tool constrains the rest of that turn as `/NAME` does:
 * its `allowed-tools` are all the next model calls are offered, its `disallowed-tools` are
 * withheld; the next user turn is free again.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createEngine } from "../../engine/bootstrap.ts";
import { YES_FOR_THIS_RUN } from "../../host/questions.ts";
import { tempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOpenAI } from "../../providers/testing/index.ts";

test("Skill-loaded allowed-tools and disallowed-tools limit the rest of the turn", async () => {
  const dirs = tempDir("islet-skill-limits-");
  dirs.write({
    "home/skills/read-only/SKILL.md":
      "---\ndescription: Look, do not touch\nallowed-tools: Read, Grep\n---\nOnly read.",
    "home/skills/no-shell.md": "---\ndescription: No shell\ndisallowed-tools: Bash\n---\nNo shell.",
    "work/a.txt": "a\n",
  });
  const model = await startFakeOpenAI([
    { toolCalls: [{ id: "s1", name: "Skill", arguments: { skill: "read-only" } }] },
    { text: ["Read only."] },
    { toolCalls: [{ id: "s2", name: "Skill", arguments: { skill: "no-shell" } }] },
    { text: ["No shell."] },
    { text: ["Free again."] },
  ]);
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    plugins: {},
    questions: YES_FOR_THIS_RUN,
    flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
    warn: () => {},
  });
  const offered = (i: number): string[] =>
    ((model.chatRequests[i].body as { tools?: { function: { name: string } }[] }).tools ?? [])
      .map((t) => t.function.name)
      .sort();
  try {
    const conv = await engine.open({ emit: () => {} });
    await conv.submit("look around");
    assert.ok(offered(0).includes("Bash") && offered(0).includes("Skill"), offered(0).join(","));
    assert.deepEqual(offered(1), ["Grep", "Read"]);

    await conv.submit("no shell please");
    assert.ok(offered(2).includes("Bash"), "a new turn is not limited by the last one's skill");
    assert.ok(!offered(3).includes("Bash"), offered(3).join(","));
    assert.ok(offered(3).includes("Read") && offered(3).includes("Skill"), offered(3).join(","));

    await conv.submit("anything");
    assert.ok(offered(4).includes("Bash"), offered(4).join(","));
    await conv.close();
  } finally {
    await engine.close();
    await model.close();
    dirs.remove();
  }
});
