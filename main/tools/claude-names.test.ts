/** Claude's tool names and fields against Islet's, both ways, from the one table. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  claudeToolName,
  isletToolList,
  isletToolName,
  toClaudeInput,
  toIsletInput,
  toolNamesFor,
} from "./claude-names.ts";
import { parseClaudeRule, ruleMatches } from "./claude-rule.ts";

test("Islet's tools by Claude's names, and back", () => {
  const pairs = [
    ["Read", "Read"],
    ["Write", "Write"],
    ["Patch", "Edit"],
    ["Bash", "Bash"],
    ["Glob", "Glob"],
    ["Grep", "Grep"],
    ["Ls", "LS"],
    ["Task", "Task"],
  ] as const;
  for (const [islet, claude] of pairs) {
    assert.equal(claudeToolName(islet), claude);
    assert.equal(isletToolName(claude), islet);
  }
  assert.equal(isletToolName("Agent"), "Task");
  assert.equal(isletToolName("MultiEdit"), "Patch");
  // Tools Claude does not have keep their names.
  assert.equal(claudeToolName("mcp__notes__lookup"), "mcp__notes__lookup");
  assert.equal(isletToolName("Done"), "Done");
  // A matcher may name either; MultiEdit is never a call's name in Islet.
  assert.deepEqual([...toolNamesFor("Patch")].sort(), ["Edit", "Patch"]);
  assert.deepEqual([...toolNamesFor("Task")].sort(), ["Agent", "Task"]);
});

test("arguments in Claude's fields and back", () => {
  const patch = { path: "src/a.ts", old_string: "a", new_string: "b", replace_all: true };
  const claude = toClaudeInput("Patch", patch);
  assert.deepEqual(claude, {
    file_path: "src/a.ts",
    old_string: "a",
    new_string: "b",
    replace_all: true,
  });
  assert.deepEqual(toIsletInput("Patch", claude), patch);
  assert.deepEqual(toClaudeInput("Read", { path: "a", offset: 2, limit: 5 }), {
    file_path: "a",
    offset: 2,
    limit: 5,
  });
  assert.deepEqual(
    toClaudeInput("Grep", { pattern: "x", case_insensitive: true, context: 2, max_results: 9 }),
    { pattern: "x", "-i": true, "-C": 2, head_limit: 9 },
  );
  assert.deepEqual(toIsletInput("Grep", { "-i": true }), { case_insensitive: true });
  // Glob and LS already share Islet's field names.
  assert.deepEqual(toClaudeInput("Ls", { path: "src" }), { path: "src" });
  // A hook that wrote Islet's own field name keeps it.
  assert.deepEqual(toIsletInput("Write", { path: "b.txt" }), { path: "b.txt" });
});

test("an agent's Claude tool list as Islet's tools; Claude-only tools are named", () => {
  assert.deepEqual(
    isletToolList(["Read", "Edit", "MultiEdit", "LS", "Agent", "Bash", "WebFetch"]),
    {
      tools: ["Read", "Patch", "Ls", "Task", "Bash", "WebFetch"],
      missing: ["WebFetch"],
    },
  );
});

test("permission rules read names through the same table", () => {
  const rule = (text: string) => {
    const r = parseClaudeRule(text);
    assert.ok(!("error" in r));
    return r;
  };
  const call = (toolName: string) => ({ toolName, args: {}, workdir: "/w" });
  assert.ok(ruleMatches(rule("LS"), call("Ls"), "every"));
  assert.ok(ruleMatches(rule("Agent"), call("Task"), "every"));
  assert.ok(!ruleMatches(rule("LS"), call("Read"), "every"));
});
