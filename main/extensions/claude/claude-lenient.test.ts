/**
 * Real plugins read as Claude Code reads them, on fixtures in the shapes of hookify,
 * pr-review-toolkit and marketplace entries: a skill with a display name, an agent whose
 * frontmatter is not YAML, a manifest listing skills under ./skills again, `$1` in a command with
 * a one-word argument-hint, language servers. Each leniency is one warning naming its file.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { formatProblem } from "../../host/problem.ts";
import { substituteArguments } from "../markdown/expand.ts";
import { readClaudePlugin, type ClaudePlugin } from "./plugin.ts";

const SIMPLIFIER = `---
name: code-simplifier
description: Use this agent when code has been written and needs simplifying.\\n\\nExamples:\\n\\n<example>
Context: The assistant has just implemented a new feature.
user: "Please add authentication to the /api/users endpoint"
assistant: "I've implemented the authentication. Here's the code:"
<function call omitted for brevity>
<commentary>
Since a logical chunk of code has been written, use the Task tool to launch the code-simplifier agent.
</commentary>
</example>
model: opus
---

You are an expert code simplification specialist.
`;

describe("a Claude plugin read leniently", () => {
  let dirs: TempDir;
  let plugin: ClaudePlugin;
  let warnings: string[];
  const at = (...p: string[]) => dirs.path("toolkit", ...p);

  before(() => {
    dirs = tempDir("islet-claude-lenient-");
    dirs.write({
      "toolkit/.claude-plugin/plugin.json": JSON.stringify({
        name: "toolkit",
        // As marketplace entries write it: each skill folder, though ./skills is the default.
        skills: ["./skills/writing-rules", "./skills/review", "./skills"],
        lspServers: { typescript: { command: "typescript-language-server", args: ["--stdio"] } },
      }),
      "toolkit/.lsp.json": JSON.stringify({
        go: { command: "gopls", extensionToLanguage: { ".go": "go" } },
      }),
      "toolkit/skills/writing-rules/SKILL.md":
        "---\nname: Writing Hookify Rules\ndescription: Use when the user asks to create a hookify rule.\nversion: 0.1.0\n---\n# Writing Hookify Rules\n",
      "toolkit/skills/review/SKILL.md": "---\nname: review\ndescription: Reviews\n---\nReview.\n",
      "toolkit/agents/code-simplifier.md": SIMPLIFIER,
      "toolkit/agents/garbled.md": "---\n: [ not yaml\n---\nStill a prompt.\n",
      "toolkit/commands/setup.md":
        "---\ndescription: Set up a system folder\nargument-hint: <system-dir>\n---\nSet up the folder $1.\n",
      "toolkit/commands/copy.md":
        "---\ndescription: Copy\nargument-hint: <from> <to>\n---\nCopy $0 to $1.\n",
    });
    plugin = readClaudePlugin(at(), { scope: "global", heldBack: false });
    warnings = plugin.warnings.map(formatProblem);
  });
  after(() => dirs.remove());

  it("loads a skill whose name has spaces under its folder's name, with one warning", () => {
    const skill = plugin.skills.find((s) => s.bareName === "writing-rules");
    assert.ok(skill, "the skill loaded");
    assert.equal(skill.name, "toolkit:writing-rules");
    assert.match(skill.description, /hookify rule/);
    const about = warnings.filter((w) => w.startsWith(at("skills/writing-rules/SKILL.md")));
    assert.deepEqual(about, [
      `${at("skills/writing-rules/SKILL.md")}: name: "Writing Hookify Rules" is not a command name (letters, digits, '.', '_', '-'); loaded as "writing-rules"`,
    ]);
  });

  it("loads each skill once when the manifest lists folders under ./skills again", () => {
    assert.deepEqual(plugin.skills.map((s) => s.name).sort(), [
      "toolkit:review",
      "toolkit:writing-rules",
    ]);
    assert.equal(plugin.errors.length, 0, plugin.errors.map(formatProblem).join("\n"));
  });

  it("loads an agent whose frontmatter is not YAML, its fields read line by line", () => {
    const agent = plugin.agents.find((a) => a.name === "toolkit:code-simplifier");
    assert.ok(agent, "the agent loaded");
    assert.match(agent.description, /needs simplifying/);
    assert.match(agent.description, /<commentary>/, "the examples stay in the description");
    assert.equal(agent.model, undefined, "opus is the session's model here");
    assert.equal(agent.systemPrompt, "You are an expert code simplification specialist.");
    const about = warnings.filter((w) => w.startsWith(at("agents/code-simplifier.md")));
    assert.equal(about.length, 1, about.join("\n"));
    assert.match(about[0], /frontmatter is not YAML .*; read field by field$/);
  });

  it("loads an agent whose frontmatter cannot be read at all under its file name", () => {
    const agent = plugin.agents.find((a) => a.name === "toolkit:garbled");
    assert.ok(agent, "the agent loaded");
    assert.equal(agent.systemPrompt, "Still a prompt.");
    const about = warnings.filter((w) => w.startsWith(at("agents/garbled.md")));
    assert.equal(about.length, 1, about.join("\n"));
    assert.match(about[0], /; loaded as "garbled" without its fields$/);
  });

  it("reads $N 0-based as Claude Code does and says so when the argument-hint disagrees", () => {
    const setup = plugin.commands.find((c) => c.name === "toolkit:setup")!;
    // Claude Code: $1 is the second argument; a missing one is left as written.
    assert.equal(substituteArguments(setup.body, "/etc/app"), "Set up the folder $1.");
    assert.ok(
      warnings.includes(
        `${at("commands/setup.md")}: $1 is argument 2, but argument-hint "<system-dir>" names 1: $0 is the first (0-based, as in Claude Code)`,
      ),
      warnings.join("\n"),
    );
    const copy = plugin.commands.find((c) => c.name === "toolkit:copy")!;
    assert.equal(substituteArguments(copy.body, `a.txt "b c.txt"`), "Copy a.txt to b c.txt.");
    assert.equal(warnings.filter((w) => w.startsWith(at("commands/copy.md"))).length, 0);
  });

  it("reads each language server; one that cannot start is one warning naming its file", () => {
    assert.deepEqual(
      plugin.lspServers.map((s) => [s.name, s.command, path.basename(s.file), s.unusable]),
      [
        ["go", "gopls", ".lsp.json", undefined],
        [
          "typescript",
          "typescript-language-server",
          "plugin.json",
          "no extensionToLanguage: no file would reach it",
        ],
      ],
    );
    assert.deepEqual(plugin.lspServers[0].extensionToLanguage, { ".go": "go" });
    assert.deepEqual(plugin.lspServers[1].args, ["--stdio"]);
    assert.deepEqual(
      warnings.filter((w) => w.includes("LSP server")),
      [
        `${at(".claude-plugin/plugin.json")}: LSP server "typescript": no extensionToLanguage: no file would reach it; not started`,
      ],
    );
  });
});
