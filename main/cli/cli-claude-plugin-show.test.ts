/**
 * `islet plugins show NAME` (the real binary) lists every part of a Claude Code plugin with its
 * state: commands, skills, agents, hooks, MCP servers (one that exits at start failed, with its
 * stderr and exit code), language servers (one without file extensions failed, with why), a
 * broken file (failed, with why); the
 * same as `--json`; `plugins list` counts them, its warnings too (said nowhere else on the command
 * line). The plugin is in the shape of the marketplaces'.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { islet, tempDirs } from "./testing/islet.ts";

let dirs: Awaited<ReturnType<typeof tempDirs>>;

async function write(files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dirs.home, "plugins", "toolkit", rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

before(async () => {
  dirs = await tempDirs();
  const dies = `console.error("npm error could not determine executable to run"); process.exit(1);`;
  await write({
    ".claude-plugin/plugin.json": JSON.stringify({
      name: "toolkit",
      version: "1.2.0",
      description: "Review helpers",
      lspServers: {
        go: { command: "gopls", extensionToLanguage: { ".go": "go" } },
        rust: { command: "rust-analyzer" },
      },
    }),
    "commands/review.md": "---\ndescription: Review\nargument-hint: <file>\n---\nReview $0.\n",
    "commands/broken.md": "---\nallowed-tools: 7\n---\nx\n",
    "skills/writing-rules/SKILL.md": "---\nname: Writing Rules\ndescription: Rules\n---\nWrite.\n",
    "agents/simplifier.md": "---\nname: simplifier\ndescription: Simplifies\n---\nSimplify.\n",
    "hooks/hooks.json": JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }],
      },
    }),
    ".mcp.json": JSON.stringify({
      mcpServers: { tickets: { command: process.execPath, args: ["-e", dies] } },
    }),
  });
});
after(() => dirs.clean());

const args = (...more: string[]) => [...more, "--home", dirs.home, "--workdir", dirs.workdir];

test("plugins show NAME lists each part of a Claude plugin with its state and why", async () => {
  const ran = await islet(args("plugins", "show", "toolkit"));
  assert.equal(ran.code, 0, ran.stderr);
  const out = ran.stdout;
  assert.match(out, /^Kind: +Claude Code plugin$/m);
  assert.match(out, /^Version: +1\.2\.0$/m);
  assert.match(
    out,
    /^Commands:\n {2}\/toolkit:review {2}loaded\n {2}\/toolkit:broken {2}failed — allowed-tools: /m,
  );
  assert.match(out, /^Skills:\n {2}toolkit:writing-rules {2}loaded$/m);
  assert.match(out, /^Agents:\n {2}toolkit:simplifier {2}loaded$/m);
  assert.match(out, /^Hooks:\n {2}PreToolUse Bash: true {2}loaded$/m);
  assert.match(
    out,
    /^MCP servers:\n {2}plugin_toolkit_tickets {2}failed — could not start: exited with code 1 before answering \(stderr: npm error could not determine executable to run\)/m,
  );
  assert.match(
    out,
    /^LSP servers:\n {2}go \(gopls\) {2}loaded\n {2}rust \(rust-analyzer\) {2}failed — no extensionToLanguage: no file would reach it; not started$/m,
  );
  assert.match(out, /^Warning: .*name: "Writing Rules" is not a command name/m);
  // Its own warnings are said once, in the listing, not again as a warning beside it.
  const said = (ran.stdout + ran.stderr).split("\n").filter((l) => l.includes('"Writing Rules"'));
  assert.equal(said.length, 1, said.join("\n"));
});

test("plugins show NAME --json gives the same parts as data", async () => {
  const ran = await islet(args("plugins", "show", "toolkit", "--json"));
  assert.equal(ran.code, 0, ran.stderr);
  const data = JSON.parse(ran.stdout) as {
    kind: string;
    status: string;
    components: { kind: string; name: string; state: string; why?: string }[];
  };
  assert.equal(data.kind, "claude-plugin");
  assert.equal(data.status, "active");
  const by = (name: string) => data.components.find((c) => c.name === name);
  assert.equal(by("/toolkit:review")?.state, "loaded");
  assert.equal(by("/toolkit:broken")?.state, "failed");
  assert.equal(by("toolkit:simplifier")?.kind, "agent");
  assert.equal(by("plugin_toolkit_tickets")?.state, "failed");
  assert.match(by("plugin_toolkit_tickets")?.why ?? "", /exited with code 1/);
  assert.equal(by("go (gopls)")?.state, "loaded");
  assert.equal(by("rust (rust-analyzer)")?.state, "failed");
});

test("plugins list counts a Claude plugin's parts", async () => {
  const ran = await islet(args("plugins", "list"));
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(
    ran.stdout,
    /^ {2}toolkit {2}active {5}2 commands, 1 skill, 1 agent, 1 hook, 1 MCP server, 2 LSP servers, 2 failed, 2 warnings$/m,
  );
  // A plugin's warnings are its own: counted here, listed by `plugins show`, not said as lines
  // before every listing or run. What failed to load still is.
  assert.doesNotMatch(ran.stderr, /Writing Rules/);
  assert.match(ran.stderr, /^warning: .*commands\/broken\.md: allowed-tools: /m);
  // The empty section is the code plugins': it does not say that nothing is loaded at all.
  assert.match(ran.stdout, /^No code plugins loaded\.$/m);
  assert.doesNotMatch(ran.stdout, /^No plugins loaded/m);
});
