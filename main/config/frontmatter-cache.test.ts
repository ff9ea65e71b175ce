/**
 * The frontmatter cache: a second engine start reads the commands, skills and agents it parsed
 * before from the cache file, an edited file is parsed afresh (its new fields are what the engine
 * sees), and what the cache returns is each caller's own copy.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { createEngine } from "../engine/bootstrap.ts";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { cachedParse } from "./frontmatter-cache.ts";
import { parseFrontmatter } from "./frontmatter.ts";

test("an edited skill is seen by the next start; the rest come from the cache", async () => {
  const dirs = tempDir("islet-fm-cache-");
  const skill = (description: string) =>
    `---\nname: deploy-notes\ndescription: ${description}\n---\nWrite the notes.\n`;
  dirs.write({
    "work/a.txt": "a\n",
    "home/plugins/notes/.claude-plugin/plugin.json": '{ "name": "notes" }',
    "home/plugins/notes/skills/deploy-notes/SKILL.md": skill("Writes deploy notes"),
    "home/plugins/notes/commands/ship.md": "---\ndescription: Ships it\n---\nShip $ARGUMENTS\n",
  });
  const start = () =>
    createEngine({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      env: {},
      plugins: {},
      flags: { provider: "openai-compatible", baseUrl: "http://127.0.0.1:9", model: "m" },
      warn: () => {},
    });
  const describe = (engine: Awaited<ReturnType<typeof start>>) => {
    const plugin = engine.declarative.claudePlugins?.plugins.find((p) => p.name === "notes");
    return [plugin?.skills[0]?.description, plugin?.commands[0]?.description];
  };
  try {
    let engine = await start();
    assert.deepEqual(describe(engine), ["Writes deploy notes", "Ships it"]);
    await engine.close();
    const file = dirs.path("home/cache/frontmatter.json");
    // Written in the background after the start.
    for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    assert.match(readFileSync(file, "utf8"), /Writes deploy notes/);

    dirs.write({
      "home/plugins/notes/skills/deploy-notes/SKILL.md": skill("Writes release notes for a deploy"),
    });
    engine = await start();
    assert.deepEqual(describe(engine), ["Writes release notes for a deploy", "Ships it"]);
    await engine.close();
  } finally {
    dirs.remove();
  }
});

test("a cached parse is each caller's own, and only JSON-exact values are kept", () => {
  const text = "---\ntags: [a, b]\nlimit: .inf\n---\nBody\n";
  const first = parseFrontmatter(text);
  (first.data.tags as string[]).push("c");
  const second = parseFrontmatter(text);
  assert.deepEqual(second.data.tags, ["a", "b"]);
  // Infinity does not survive JSON: that block is parsed every time, never cached wrong.
  assert.equal(second.data.limit, Infinity);
  let parses = 0;
  const parse = () => (parses++, { when: new Date(0) });
  cachedParse("when: 0", parse);
  cachedParse("when: 0", parse);
  assert.equal(parses, 2);
});
