/**
 * Live edits without /reload: commands, skills, agents and shell hook files added or edited in
 * the homes serve the next turn (their folders need not exist when watching starts); a broken
 * file is one warning while the rest stay loaded; `islet trust add` run meanwhile brings in the
 * project's commands. Real files, a real watcher, a real shell hook in a real turn.
 */
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { test } from "node:test";
import { createEngine } from "../engine/bootstrap.ts";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { TrustStore } from "../trust/store.ts";
import { formatProblem } from "../host/problem.ts";

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(`not seen within 30 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("the homes' commands, skills, agents and hooks are live on the next turn", async () => {
  const dirs = tempDir("islet-watch-homes-");
  const model = await startFakeOpenAI([{ text: ["ok"] }]);
  dirs.write({
    "home/config/providers.yaml": `default: { provider: main, model: m }\nproviders:\n  main: { type: openai-compatible, base_url: ${model.url} }\n`,
    "work/.islet/config/commands/proj.md": "---\ndescription: Project\n---\nP.",
  });
  const warnings: string[] = [];
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    warn: (p) => warnings.push(formatProblem(p)),
  });
  let batches = 0;
  try {
    await engine.watchHomes(() => batches++);
    dirs.write({ "home/config/commands/x.md": "---\ndescription: First\n---\nX." });
    await until("a new command", () => engine.commands.get("x")?.description === "First");
    dirs.write({ "home/config/commands/x.md": "---\ndescription: Edited\n---\nX." });
    await until("an edited command", () => engine.commands.get("x")?.description === "Edited");

    // A burst of saves is debounced into a few reloads, not one per file.
    const before = batches;
    dirs.write(
      Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`home/config/commands/burst-${i}.md`, `B${i}.`]),
      ),
    );
    await until("the burst", () => engine.commands.get("burst-19") !== undefined);
    await until("all of the burst", () =>
      Array.from({ length: 20 }, (_, i) => `burst-${i}`).every((n) => engine.commands.get(n)),
    );
    // Reloads still queued would count late: give them a generous second to land.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.ok(batches - before < 20, `${batches - before} reloads for 20 files`);

    dirs.write({
      "home/skills/tidy/SKILL.md": "---\ndescription: Tidy up\n---\nTidy.",
      "home/config/agents/helper.md": "---\ndescription: Helps\n---\nYou help.",
    });
    await until("a new skill", () => engine.commands.get("tidy")?.kind === "skill");
    await until("a new agent", () => engine.agents.has("helper"));

    dirs.write({ "home/config/commands/bad.md": "---\nmodel: 7\n---\nB." });
    await until("the broken file's warning", () => warnings.some((w) => w.includes("bad.md")));
    assert.equal(
      warnings
        .filter((w) => w.includes("bad.md"))
        .at(-1)
        ?.includes("\n"),
      false,
    );
    assert.equal(engine.commands.get("x")?.description, "Edited", "the rest stays loaded");
    assert.ok(engine.agents.has("helper"));

    const hook = 'cat > /dev/null; echo stop >> "$CLAUDE_PROJECT_DIR/stopped.txt"';
    dirs.write({
      "home/config/hooks/stop.json": JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: hook }] }] },
      }),
    });
    await until("a new hook file", () => engine.declarative.shellHooks.files.length === 1);
    const conv = await engine.open({ emit: () => {} });
    await conv.submit("hello");
    assert.equal(existsSync(dirs.path("work/stopped.txt")), true, "the new hook ran");
    await conv.close();

    // Held back while untrusted; `islet trust add` while the engine runs brings it in.
    assert.equal(engine.commands.get("proj"), undefined);
    await new TrustStore(dirs.path("home"), () => {}).record(dirs.path("work"), "trusted");
    await until("the trusted project's command", () => engine.commands.get("proj") !== undefined);
    // `islet trust revoke` while it runs takes it away again, as live.
    await new TrustStore(dirs.path("home"), () => {}).revoke(dirs.path("work"));
    await until(
      "the revoked project's command gone",
      () => engine.commands.get("proj") === undefined,
    );
    assert.ok(batches > 0);
  } finally {
    await engine.close();
    await model.close();
    dirs.remove();
  }
});

test("an open conversation's agent file edited: its next turn uses the new prompt", async () => {
  const dirs = tempDir("islet-watch-agent-");
  const model = await startFakeOpenAI([{ text: ["one"] }, { text: ["two"] }]);
  dirs.write({
    "home/config/providers.yaml": `default: { provider: main, model: m }\nproviders:\n  main: { type: openai-compatible, base_url: ${model.url} }\n`,
    "home/config/agents/writer.md": "---\ndescription: Writes\n---\nPROMPT-V1\n",
    "work/.keep": "",
  });
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    warn: () => {},
  });
  const system = (i: number) => JSON.stringify(model.chatRequests[i].body);
  try {
    await engine.watchHomes();
    const conv = await engine.open({ agent: "writer", emit: () => {} });
    await conv.submit("first");
    assert.match(system(0), /PROMPT-V1/);
    dirs.write({ "home/config/agents/writer.md": "---\ndescription: Writes\n---\nPROMPT-V2\n" });
    await until(
      "the edited agent",
      () => engine.agents.get("writer")?.systemPrompt === "PROMPT-V2",
    );
    await conv.submit("second");
    assert.match(system(1), /PROMPT-V2/);
    assert.doesNotMatch(system(1), /PROMPT-V1/);
    await conv.close();
  } finally {
    await engine.close();
    await model.close();
    dirs.remove();
  }
});

test("files beside the watched folders are no change; a deleted .islet/ takes its commands away", async () => {
  const dirs = tempDir("islet-watch-homes-quiet-");
  dirs.write({
    "home/.keep": "",
    "work/.islet/config/commands/proj.md": "---\ndescription: Project\n---\nP.",
  });
  await new TrustStore(dirs.path("home"), () => {}).record(dirs.path("work"), "trusted");
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    warn: () => {},
  });
  let batches = 0;
  try {
    await engine.watchHomes(() => batches++);
    assert.ok(engine.commands.get("proj"));
    // What the app and the agent write next to them (a new config/ with models.yaml, a file in
    // the workspace, a session) reloads nothing and tells no window.
    dirs.write({
      "home/config/models.yaml": "x: 1\n",
      "work/notes.txt": "hi",
      "home/sessions/s.jsonl": "{}\n",
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(batches, 0);
    rmSync(dirs.path("work", ".islet"), { recursive: true });
    await until("the project's command gone", () => engine.commands.get("proj") === undefined);
    // The windows are told once the whole batch (hooks too) is applied.
    await until("the windows told", () => batches > 0);
  } finally {
    await engine.close();
    dirs.remove();
  }
});
