import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadHomeAgents, parseAgentFile, readAgentFile } from "./load.ts";
import { formatProblem } from "../host/problem.ts";

test("an agent file: frontmatter fields, body as system prompt, name from the file", () => {
  const a = parseAgentFile(
    "/h/config/agents/reviewer.md",
    "---\ndescription: Reviews\ntools: Read, Grep\nmax_steps: 7\nfailover: [local]\nthinking: low\n---\nYou review code.\n",
  );
  assert.equal(a.name, "reviewer");
  assert.equal(a.description, "Reviews");
  assert.deepEqual(a.tools, ["Read", "Grep"]);
  assert.equal(a.maxSteps, 7);
  assert.deepEqual(a.failover, ["local"]);
  assert.equal(a.thinking, "low");
  assert.equal(a.systemPrompt, "You review code.");
});

test("bad fields are one line naming the file and field", () => {
  assert.throws(
    () => parseAgentFile("/h/a.md", "---\nmax_steps: lots\n---\nx"),
    /^Error: \/h\/a\.md: max_steps: /,
  );
  assert.throws(() => parseAgentFile("/h/b.md", "---\n: [\n---\nx"), /^Error: \/h\/b\.md: /);
});

test("project agents override global ones; broken files are reported and skipped", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-agents-"));
  try {
    const g = path.join(root, "global", "config", "agents");
    const p = path.join(root, "project", "config", "agents");
    await mkdir(g, { recursive: true });
    await mkdir(p, { recursive: true });
    await writeFile(path.join(g, "coder.md"), "---\nmodel: a\n---\nglobal");
    await writeFile(path.join(p, "coder.md"), "---\nmodel: b\nfailover: [ghost]\n---\nproject");
    await writeFile(path.join(p, "broken.md"), "---\nmax_steps: -1\n---\n");
    const { agents, errors } = loadHomeAgents([
      path.join(root, "global"),
      path.join(root, "project"),
    ]);
    assert.equal(agents.get("coder")?.model, "b");
    assert.equal(agents.get("coder")?.systemPrompt, "project");
    assert.ok(agents.has("default"));
    assert.ok(!agents.has("broken"));
    assert.equal(errors.length, 2);
    assert.match(formatProblem(errors[0]), /broken\.md: max_steps/);
    assert.match(formatProblem(errors[1]), /coder\.md: failover: unknown agent "ghost"/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("Claude's tool names in tools and disallowedTools become Islet's; the missing ones are one warning", () => {
  const { agent, warnings } = readAgentFile(
    "/p/agents/code-reviewer.md",
    "---\nname: code-reviewer\n" +
      "tools: Read, Edit, MultiEdit, LS, Agent, Bash(git:*), WebFetch, NotebookRead\n" +
      "disallowedTools: [Edit]\n---\nReview.\n",
  );
  assert.deepEqual(agent.tools, [
    "Read",
    "Patch",
    "Ls",
    "Task",
    "Bash",
    "WebFetch",
    "NotebookRead",
  ]);
  assert.deepEqual(agent.disallowedTools, ["Patch"]);
  // Bash is listed only with a specifier: its calls must fall within it.
  assert.deepEqual(agent.toolRules, ["Bash(git:*)"]);
  assert.deepEqual(warnings.map(formatProblem), [
    "/p/agents/code-reviewer.md: tools: Islet has no WebFetch, NotebookRead; the agent loads without them",
  ]);
});

test("extensions_budget, hook_context_budget: percents of the window from 1 to 100; anything else is one line", () => {
  const a = parseAgentFile(
    "/h/small.md",
    "---\nextensions_budget: 5\nhook_context_budget: 40\n---\nx",
  );
  assert.equal(a.extensionsBudget, 5);
  assert.equal(a.hookContextBudget, 40);
  assert.equal(parseAgentFile("/h/plain.md", "---\n---\nx").extensionsBudget, undefined);
  assert.throws(
    () => parseAgentFile("/h/bad.md", "---\nhook_context_budget: 0\n---\nx"),
    /^Error: \/h\/bad\.md: hook_context_budget: must be a percent of the window from 1 to 100$/,
  );
  for (const bad of ["0", "150", "ten"])
    assert.throws(
      () => parseAgentFile("/h/bad.md", `---\nextensions_budget: ${bad}\n---\nx`),
      (err: Error) => {
        assert.match(err.message, /^\/h\/bad\.md: extensions_budget: /);
        assert.equal(err.message.split("\n").length, 1);
        return true;
      },
    );
  assert.throws(
    () => parseAgentFile("/h/bad.md", "---\nextensions_budget: 0\n---\nx"),
    /must be a percent of the window from 1 to 100/,
  );
});

test("specifiers are kept as rules unless the tool is also listed bare; disallowed ones refuse calls", () => {
  const { agent } = readAgentFile(
    "/p/agents/lead.md",
    "---\nname: lead\ntools: Agent(worker, researcher), Bash, Bash(git:*), Read(src/**)\n" +
      "disallowedTools: Bash(rm:*), Write\n---\nLead.\n",
  );
  assert.deepEqual(agent.tools, ["Task", "Bash", "Read"]);
  assert.deepEqual(agent.toolRules, ["Agent(worker, researcher)", "Read(src/**)"]);
  assert.deepEqual(agent.deniedRules, ["Bash(rm:*)"]);
  assert.deepEqual(agent.disallowedTools, ["Write"]);
});
