/**
 * The markdown index: a start after the files were indexed lists the same commands, skills and
 * agents without reading them, and a body is read when it is used (so an edit made after the
 * start is what the command sends); an edited file is read afresh, a deleted one is gone, and a
 * broken index file costs nothing but the rebuild.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { createEngine } from "../../engine/bootstrap.ts";
import { TRUST_AGE_MS } from "../../config/markdown-index.ts";
import { formatProblem } from "../../host/problem.ts";
import { startFakeOpenAI } from "../../providers/testing/index.ts";
import { tempDir } from "../../code-plugins/loader/testing.ts";

const command = (body: string) => `---\ndescription: Ships it\n---\n${body}\n`;
const skill = (description: string) =>
  `---\nname: deploy-notes\ndescription: ${description}\n---\nWrite the notes.\n`;
const agent = "---\nname: reviewer\ndescription: Reviews a change\n---\nYou review changes.\n";

test("indexed files are listed without being read; edits, deletions and a broken index are seen", async () => {
  const dirs = tempDir("islet-md-index-");
  dirs.write({
    "work/a.txt": "a\n",
    "home/plugins/notes/.claude-plugin/plugin.json": '{ "name": "notes" }',
    "home/plugins/notes/commands/ship.md": command("Ship $ARGUMENTS now."),
    "home/plugins/notes/skills/deploy-notes/SKILL.md": skill("Writes deploy notes"),
    "home/plugins/notes/agents/reviewer.md": agent,
  });
  const srv = await startFakeOpenAI(Array.from({ length: 4 }, () => ({ text: ["ok"] })));
  const warnings: string[] = [];
  const start = () =>
    createEngine({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      env: {},
      plugins: {},
      flags: { provider: "openai-compatible", baseUrl: srv.url, model: "m" },
      warn: (p) => warnings.push(formatProblem(p)),
    });
  type Engine = Awaited<ReturnType<typeof start>>;
  const notes = (engine: Engine) =>
    engine.declarative.claudePlugins?.plugins.find((p) => p.name === "notes");
  const listed = (engine: Engine) => {
    const p = notes(engine);
    return [
      p?.commands.map((c) => `${c.name}: ${c.description}`),
      p?.skills.map((s) => `${s.name}: ${s.description}`),
      p?.agents.map((a) => `${a.name}: ${a.description}`),
    ];
  };
  const index = dirs.path("home/cache/markdown-index.json");
  try {
    // Only files older than the filesystem's clock granularity are trusted to their stamp.
    await sleep(TRUST_AGE_MS + 300);
    let engine = await start();
    const all = [
      ["notes:ship: Ships it"],
      ["notes:deploy-notes: Writes deploy notes"],
      ["notes:reviewer: Reviews a change"],
    ];
    assert.deepEqual(listed(engine), all);
    await engine.close();
    for (let i = 0; i < 100 && !existsSync(index); i++) await sleep(20);
    assert.ok(existsSync(index), "the index is written after the start");

    // From the index: the bodies are read when used, so edits made after this start are what
    // is used (a start that had read them would send the old text).
    engine = await start();
    assert.deepEqual(listed(engine), all);
    writeFileSync(dirs.path("home/plugins/notes/commands/ship.md"), command("Deliver $ARGUMENTS."));
    writeFileSync(
      dirs.path("home/plugins/notes/agents/reviewer.md"),
      agent.replace("You review changes.", "You review carefully."),
    );
    const conversation = await engine.open({ emit: () => {} });
    await conversation.submit("/notes:ship the parser");
    assert.match(JSON.stringify(srv.chatRequests.at(-1)?.body), /Deliver the parser\./);
    assert.equal(notes(engine)?.agents[0].systemPrompt, "You review carefully.");
    await conversation.close();
    await engine.close();

    // An edit of the same size is read afresh; a deleted file is gone.
    writeFileSync(
      dirs.path("home/plugins/notes/skills/deploy-notes/SKILL.md"),
      skill("Writes deploy nodes"),
    );
    rmSync(dirs.path("home/plugins/notes/agents/reviewer.md"));
    engine = await start();
    assert.deepEqual(listed(engine), [
      ["notes:ship: Ships it"],
      ["notes:deploy-notes: Writes deploy nodes"],
      [],
    ]);
    await engine.close();

    // A broken or foreign index is ignored (and rebuilt), entries of the right version too.
    const { version, entries } = JSON.parse(readFileSync(index, "utf8")) as {
      version: unknown;
      entries: [string, Record<string, unknown>][];
    };
    const foreign = entries.map(([key, e]) => [key, { ...e, item: 5, warnings: "none" }]);
    for (const broken of [
      "{ not json",
      JSON.stringify({ version, entries: [5, ["k", { stamp: 1 }], ["x", null], ...foreign] }),
      JSON.stringify({ version, entries: { k: 1 } }),
      JSON.stringify({ version: "another", entries }),
    ]) {
      writeFileSync(index, broken);
      engine = await start();
      assert.deepEqual(listed(engine), [
        ["notes:ship: Ships it"],
        ["notes:deploy-notes: Writes deploy nodes"],
        [],
      ]);
      await engine.close();
    }
    assert.deepEqual(
      warnings.filter((w) => /index|cache/i.test(w)),
      [],
    );
  } finally {
    await srv.close();
    dirs.remove();
  }
});
