/** Claude's permission rules against Islet's calls: Bash prefixes and globs, paths, names. */
import assert from "node:assert/strict";
import { homedir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { parseClaudeRule, ruleMatches, simpleCommands, type ClaudeRule } from "./claude-rule.ts";

const workdir = "/work/project";
const rule = (text: string): ClaudeRule => {
  const parsed = parseClaudeRule(text);
  assert.ok(!("error" in parsed), text);
  return parsed;
};
const bash = (text: string, command: string, mode: "any" | "every" = "every") =>
  ruleMatches(rule(text), { toolName: "Bash", args: { command }, workdir }, mode);

test("a shell line's simple commands: operators, subshells, backticks, env prefixes", () => {
  assert.deepEqual(simpleCommands("FOO=bar git push && ls -la; echo $(git commit -m x) | cat"), [
    "git push",
    "ls -la",
    "echo",
    "git commit -m x",
    "cat",
  ]);
  assert.deepEqual(simpleCommands("echo `rm -rf /`\nwhoami"), ["echo", "rm -rf /", "whoami"]);
  assert.deepEqual(simpleCommands('echo "$HOME"'), ["echo $HOME"]);
});

test("Bash(prefix:*) is a prefix at a word boundary; * a glob; otherwise exact", () => {
  assert.ok(bash("Bash(git commit:*)", "git commit -m 'x'"));
  assert.ok(bash("Bash(git commit:*)", "git commit"));
  assert.ok(!bash("Bash(git commit:*)", "git commitment"));
  assert.ok(bash("Bash(npm run *)", "npm run test"));
  assert.ok(!bash("Bash(npm run *)", "npm install"));
  assert.ok(bash("Bash(npm test)", "npm test"));
  assert.ok(!bash("Bash(npm test)", "npm test --watch"));
  assert.ok(bash("Bash", "anything at all"));
});

test("an allow rule needs every command of the line; a hook's if needs one", () => {
  const line = "git add . && curl -s http://127.0.0.1:9/p | sh";
  assert.ok(!bash("Bash(git add:*)", line, "every"), "the rest of the line is not allowed");
  assert.ok(bash("Bash(git add:*)", line, "any"));
  assert.ok(bash("Bash(git push:*)", "FOO=bar git push origin main", "any"));
  assert.ok(bash("Bash(git commit:*)", "ls && git commit -m x", "any"));
  assert.ok(!bash("Bash(git commit:*)", "echo git commit", "any"));
});

test("file rules: gitignore-like paths, ~ and // roots; Edit covers Patch and Write", () => {
  const file = (text: string, toolName: string, p: string) =>
    ruleMatches(rule(text), { toolName, args: { path: p }, workdir }, "every");
  assert.ok(file("Edit(src/**)", "Patch", "src/a/b.ts"));
  assert.ok(file("Edit(src/**)", "Write", "/work/project/src/x.ts"));
  assert.ok(!file("Edit(src/**)", "Patch", "lib/x.ts"));
  assert.ok(!file("Edit(src/**)", "Patch", "src/../../etc/passwd"));
  assert.ok(file("Read(.env)", "Read", "config/.env"));
  assert.ok(file("Read(~/.ssh/**)", "Read", path.join(homedir(), ".ssh", "id_ed25519")));
  assert.ok(file("Read(//etc/**)", "Read", "/etc/hosts"));
  assert.ok(!file("Read(//etc/**)", "Write", "/etc/hosts"), "a Read rule does not cover Write");
  assert.ok(!file("Write(src/**)", "Patch", "src/a.ts"));
});

test("names: Claude's map to Islet's, MCP names and patterns are literal, odd specifiers cover nothing", () => {
  const call = (text: string, toolName: string, args: Record<string, unknown> = {}) =>
    ruleMatches(rule(text), { toolName, args, workdir }, "every");
  assert.ok(call("LS", "Ls"));
  assert.ok(call("Agent", "Task"));
  assert.ok(call("mcp__github__get_issue", "mcp__github__get_issue"));
  assert.ok(call("mcp__github__*", "mcp__github__list"));
  assert.ok(!call("mcp__github__*", "mcp__gitlab__list"));
  assert.ok(
    call("WebFetch(domain:example.com)", "WebFetch", { url: "https://docs.example.com/a" }),
  );
  assert.ok(
    !call("WebFetch(domain:example.com)", "WebFetch", { url: "https://example.com.evil.io" }),
  );
  assert.ok(!call("Grep(whatever)", "Grep", { pattern: "x" }));
  assert.ok("error" in parseClaudeRule("Bash(git"));
});
