/**
 * Each part of a Claude Code plugin (fixtures/code-review) working in real turns against the
 * loopback model server: its command expands and reaches the model, its skill is listed and
 * loads through the Skill tool, its MCP server (a stdio script in the plugin) starts and its tool
 * is offered and called as mcp__plugin_code-review_notes__lookup, its hook blocks Grep, its agent
 * is switched to with only its tools. An untrusted project's copy brings commands, not servers.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { resolveHomes } from "../../config/homes.ts";
import { startEngineRig, type EngineRig } from "../../engine/testing.ts";
import { tempDir } from "../../code-plugins/loader/testing.ts";
import { Contributions } from "../../contributions/contributions.ts";
import { ClaudePluginSource } from "./source.ts";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "code-review");
const MCP_TOOL = "mcp__plugin_code-review_notes__lookup";

interface Body {
  messages: unknown[];
  tools?: { function: { name: string } }[];
}
const toolNames = (b: Body): string[] => (b.tools ?? []).map((t) => t.function.name);

describe("a Claude Code plugin's parts in real turns", () => {
  let rig: EngineRig;
  const root = () => rig.dirs.path("home/plugins/code-review");
  const body = (i: number): Body => rig.model.chatRequests[i].body as Body;

  before(async () => {
    rig = await startEngineRig({
      prefix: "islet-claude-wired-",
      files: { "work/a.txt": "file a\n" },
      script: [
        { text: ["Reviewing."] },
        {
          toolCalls: [
            { id: "call_skill", name: "Skill", arguments: { skill: "code-review:house-style" } },
            { id: "call_mcp", name: MCP_TOOL, arguments: { topic: "naming" } },
            { id: "call_grep", name: "Grep", arguments: { pattern: "file" } },
          ],
        },
        { text: ["Styled."] },
        { text: ["Reviewed as the reviewer."] },
      ],
      plugins: {},
      copies: { "home/plugins/code-review": FIXTURE },
    });
  });

  after(() => rig.close());

  it("/code-review:review expands its body with the arguments and sends it", async () => {
    const { engine } = rig;
    const command = engine.commands.get("code-review:review");
    assert.equal(command?.source, "plugin");
    assert.equal(command.plugin, "code-review");
    const { conv } = await rig.open();
    const r = await conv.submit("/code-review:review security");
    assert.equal(r.kind === "command" && r.outcome?.text, "Reviewing.");
    assert.match(
      JSON.stringify(body(0).messages),
      /Review the changes in this repository\. Focus on: security/,
    );
    // allowed-tools: Bash(git diff:*), Read pre-approves those; it takes no tool away.
    assert.ok(["Bash", "Read", "Patch"].every((t) => toolNames(body(0)).includes(t)));
    await conv.close();
  });

  it("lists its skill, loads it through Skill, offers and calls its MCP tool, runs its hook", async () => {
    const { engine, model } = rig;
    const { conv, events } = await rig.open();
    await engine.mcp.startAll(); // a turn does not wait for a server still starting
    const r = await conv.submit("review in house style");
    assert.ok(r.kind === "turn" && r.outcome.status === "done", JSON.stringify(r));
    const first = model.chatRequests[1].raw;
    assert.match(first, /- code-review:house-style: The house coding style/);
    assert.doesNotMatch(first, /Prefer small functions/, "the body loads on demand");
    assert.ok(toolNames(body(1)).includes(MCP_TOOL), toolNames(body(1)).join(","));

    const result = (id: string) => {
      const e = events.find((x) => x.type === "tool_result" && x.id === id);
      assert.ok(e?.type === "tool_result", `no result for ${id}`);
      return e;
    };
    const skill = result("call_skill");
    assert.equal(skill.error, false, skill.output);
    assert.match(skill.output, /Prefer small functions/);
    assert.match(skill.output, /examples\.md/);
    const mcp = result("call_mcp");
    assert.equal(mcp.error, false, mcp.output);
    assert.match(
      mcp.output,
      new RegExp(`naming: Name things for what they are\\. .*root ${root()}`),
    );
    const grep = result("call_grep");
    assert.equal(grep.error, true);
    assert.match(grep.output, /code-review guard from .*: Grep is not allowed here/);
    const server = engine.mcp.list().find((s) => s.name === "plugin_code-review_notes");
    assert.equal(server?.status, "running");
    await conv.close();
  });

  it("/agent code-review:reviewer switches to the plugin's agent with only its tools", async () => {
    const { warnings } = rig;
    const { conv } = await rig.open();
    const switched = await conv.submit("/agent code-review:reviewer");
    assert.equal(switched.kind, "command");
    await conv.submit("check this");
    const sent = body(3);
    assert.match(JSON.stringify(sent.messages), /You review code\. Point out bugs/);
    const offered = toolNames(sent);
    for (const t of ["Read", "Grep", "Glob"]) assert.ok(offered.includes(t), offered.join(","));
    assert.ok(!offered.includes("Bash") && !offered.includes("Write"), offered.join(","));
    assert.deepEqual(
      warnings.filter((w) => w.includes("code-review")),
      [],
    );
    await conv.close();
  });

  it("an untrusted project's copy brings its commands, skills and agents but no MCP server", async () => {
    const project = tempDir("islet-claude-wired-project-");
    try {
      cpSync(FIXTURE, project.path("work/.islet/plugins/code-review"), { recursive: true });
      const homes = resolveHomes({ home: project.path("home"), workdir: project.path("work") });
      const c = new Contributions();
      const source = new ClaudePluginSource({
        homes,
        flags: { trustedProject: false },
        warn: () => {},
      });
      await source.load(c.registrar());
      assert.ok(c.commands.get("code-review:review"));
      assert.ok(c.commands.get("code-review:house-style"));
      assert.ok(c.agents.get("code-review:reviewer"));
      assert.deepEqual(c.mcpServers.names(), []);
      assert.equal(source.plugins[0].mcpServers[0]?.name, "plugin_code-review_notes", "listed");
      await source.dispose();
    } finally {
      project.remove();
    }
  });
});
