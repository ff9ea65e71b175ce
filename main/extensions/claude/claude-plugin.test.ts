/**
 * A Claude Code plugin written to the published format (fixtures/code-review) loads unchanged
 * beside a code plugin, from a folder whose path has spaces: its hook runs with
 * CLAUDE_PLUGIN_ROOT and blocks a tool in a real turn, its agent and MCP server join the engine,
 * its commands, skills and output styles are found. A broken plugin costs only its broken files,
 * each in one line; an untrusted project's plugin hooks are held back.
 */
import assert from "node:assert/strict";
import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { resolveHomes } from "../../config/homes.ts";
import { startEngineRig, type EngineRig } from "../../engine/testing.ts";
import { NOBODY } from "../../host/questions.ts";
import { findPluginFolders } from "../../code-plugins/loader/walk.ts";
import { pluginFiles, tempDir } from "../../code-plugins/loader/testing.ts";
import { ClaudePluginSource } from "./source.ts";
import { formatProblem } from "../../host/problem.ts";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "code-review");

describe("a Claude Code plugin", () => {
  let rig: EngineRig;

  before(async () => {
    rig = await startEngineRig({
      prefix: "islet-claude-plugin-",
      files: {
        "work/a.txt": "file a\n",
        ...pluginFiles("home/plugins/hello"),
        // Broken on purpose: the manifest does not parse, hooks.json has a bad entry.
        "home/plugins/broken/.claude-plugin/plugin.json": '{ "name": "broken", ',
        "home/plugins/broken/hooks/hooks.json": JSON.stringify({
          hooks: { PreToolUse: [{ matcher: "Read", hooks: [{ type: "command" }] }], Bogus: [] },
        }),
        "home/plugins/broken/agents/helper.md":
          "---\nname: helper\ndescription: helps\n---\nHelp.\n",
      },
      script: [
        {
          toolCalls: [
            { id: "call_read", name: "Read", arguments: { path: "a.txt" } },
            { id: "call_grep", name: "Grep", arguments: { pattern: "file" } },
          ],
        },
        { text: ["Reviewed."] },
      ],
      plugins: {},
      questions: NOBODY,
      copies: { "home/plugins/my plugins/code-review": FIXTURE },
    });
  });

  after(() => rig.close());

  it("is found beside code plugins without changing their discovery", async () => {
    const { dirs, engine } = rig;
    const walked = await findPluginFolders(dirs.path("home/plugins"));
    assert.deepEqual(walked.folders, [dirs.path("home/plugins/hello")]);
    assert.deepEqual(walked.claudeFolders, [
      dirs.path("home/plugins/broken"),
      dirs.path("home/plugins/my plugins/code-review"),
    ]);
    assert.deepEqual(engine.plugins?.names(), ["hello"]);
  });

  it("brings its commands, skills, agents, MCP servers and output styles", () => {
    const { engine } = rig;
    const plugin = engine.declarative.claudePlugins?.plugins.find((p) => p.name === "code-review");
    assert.ok(plugin);
    assert.deepEqual(plugin.errors, []);
    assert.equal(plugin.manifest.version, "1.2.0");
    assert.deepEqual(
      plugin.commands.map((c) => c.name),
      ["code-review:blame-line", "code-review:review"],
    );
    assert.deepEqual(
      plugin.skills.map((s) => s.name),
      ["code-review:house-style"],
    );
    assert.deepEqual(
      plugin.outputStyles.map((s) => s.name),
      ["code-review:terse"],
    );
    const agent = engine.agents.get("code-review:reviewer");
    assert.ok(agent, "the plugin's agent is registered under plugin:agent");
    assert.deepEqual(agent.tools, ["Read", "Grep", "Glob"]);
    assert.equal(agent.model, undefined, "model: inherit means the session's model");
    assert.ok(engine.extensions.mcpServers.names().includes("plugin_code-review_notes"));
  });

  it("runs its hooks with CLAUDE_PLUGIN_ROOT: the guard blocks Grep in a real turn", async () => {
    const { dirs } = rig;
    const { conv, events } = await rig.open();
    const result = await conv.submit("review");
    assert.ok(result.kind === "turn" && result.outcome.status === "done");
    const grep = events.find((e) => e.type === "tool_result" && e.id === "call_grep");
    assert.ok(grep?.type === "tool_result");
    assert.equal(grep.error, true);
    const root = dirs.path("home/plugins/my plugins/code-review");
    assert.ok(
      grep.output.includes(`code-review guard from ${root}: Grep is not allowed here`),
      grep.output,
    );
    const read = events.find((e) => e.type === "tool_result" && e.id === "call_read");
    assert.ok(read?.type === "tool_result" && read.error === false);
    // The event went to the plugin's data folder (CLAUDE_PLUGIN_DATA).
    const event = JSON.parse(
      readFileSync(dirs.path("home/plugin-data/code-review/last-event.json"), "utf8"),
    ) as Record<string, unknown>;
    assert.equal(event.tool_name, "Grep");
    assert.deepEqual(event.tool_input, { pattern: "file" });
    await conv.close();
  });

  it("loads what it can of a broken plugin and names each broken file and field in one line", () => {
    const { engine, warnings } = rig;
    const broken = engine.declarative.claudePlugins?.plugins.find((p) => p.name === "broken");
    assert.ok(broken);
    assert.ok(engine.agents.get("broken:helper"), "its agent still loads");
    const errors = broken.errors.map(formatProblem);
    assert.equal(errors.length, 2, errors.join("\n"));
    assert.match(errors[0], /broken\/\.claude-plugin\/plugin\.json: not valid JSON: /);
    assert.match(
      errors[1],
      /broken\/hooks\/hooks\.json: field "hooks\.PreToolUse\[0\]\.hooks\[0\]\.command": expected a command line/,
    );
    const brokenWarnings = broken.warnings.map(formatProblem);
    assert.ok(brokenWarnings.some((w) => /unknown hook event "Bogus" ignored/.test(w)));
    for (const line of [...errors, ...brokenWarnings]) assert.ok(!line.includes("\n"), line);
    // What failed is said as the engine loads; the plugin's warnings stay with it (its card,
    // `plugins show`), not said again at every start.
    for (const line of errors) assert.ok(warnings.includes(line), `reported through warn: ${line}`);
    for (const line of brokenWarnings) assert.ok(!warnings.includes(line), `not said: ${line}`);
  });

  it("holds back an untrusted project's plugin hooks and MCP servers", async () => {
    const project = tempDir("islet-claude-project-");
    try {
      cpSync(FIXTURE, project.path("work/.islet/plugins/code-review"), { recursive: true });
      const homes = resolveHomes({ home: project.path("home"), workdir: project.path("work") });
      const found = async (trustedProject: boolean) =>
        (
          await new ClaudePluginSource({
            homes,
            flags: { trustedProject },
            warn: () => {},
          }).discover()
        ).found[0];
      assert.equal((await found(false)).heldBack, true);
      assert.equal((await found(true)).heldBack, false);
    } finally {
      project.remove();
    }
  });
});
