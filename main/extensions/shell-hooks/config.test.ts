/**
 * Reading hook files as Claude Code does: both layouts, matchers, lenient about unknown events
 * and fields, one line naming file and field for a broken entry while the rest still loads; and
 * a project's hooks held back until the folder is trusted.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { resolveHomes } from "../../config/homes.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { parseHooksFile } from "./config.ts";
import { compileMatcher } from "./matcher.ts";
import { ShellHookSource } from "./source.ts";
import { formatProblem } from "../../host/problem.ts";

describe("hook files", () => {
  it("reads Claude's hooks.json layout with defaults", () => {
    const parsed = parseHooksFile(
      "hooks.json",
      JSON.stringify({
        description: "x",
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "a", timeout: 5 }] }],
          Stop: [{ hooks: [{ type: "command", command: "b" }] }],
        },
      }),
    );
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(parsed.warnings, []);
    assert.deepEqual(
      parsed.hooks.map((h) => [h.event, h.matcher, h.command, h.timeoutS, h.field]),
      [
        ["PreToolUse", "Bash", "a", 5, "hooks.PreToolUse[0].hooks[0]"],
        ["Stop", "", "b", 60, "hooks.Stop[0].hooks[0]"],
      ],
    );
  });

  it("takes Claude's shell: bash as its default, and says in one line that PowerShell is not run", () => {
    // As superpowers' hooks.json writes it.
    const hook = (shell: string) =>
      JSON.stringify({
        hooks: {
          SessionStart: [
            {
              matcher: "startup|clear|compact",
              hooks: [{ type: "command", command: "run-hook", shell, async: false }],
            },
          ],
        },
      });
    const bash = parseHooksFile("hooks.json", hook("bash"));
    assert.deepEqual(bash.warnings, []);
    assert.deepEqual(
      bash.hooks.map((h) => [h.event, h.command, h.background]),
      [["SessionStart", "run-hook", undefined]],
    );
    const pwsh = parseHooksFile("hooks.json", hook("powershell"));
    assert.equal(pwsh.hooks.length, 1);
    assert.deepEqual(pwsh.warnings.map(formatProblem), [
      'hooks.json: field "hooks.SessionStart[0].hooks[0].shell": "powershell" is not supported; the command runs in your shell ($SHELL; cmd on Windows)',
    ]);
  });

  it("warns about unknown events and fields, and names file and field of a broken entry", () => {
    const parsed = parseHooksFile(
      "/h/config/hooks/x.yaml",
      `
PreToolUse:
  - matcher: Bash
    hooks:
      - command: ok
        colour: blue
      - command: 42
      - command: slow
        timeout: soon
PostToolUse: nope
OnFire:
  - hooks: [{ command: x }]
`,
    );
    assert.deepEqual(
      parsed.hooks.map((h) => h.command),
      ["ok"],
    );
    assert.deepEqual(parsed.errors.map(formatProblem), [
      '/h/config/hooks/x.yaml: field "PreToolUse[0].hooks[1].command": expected a command line, got 42',
      '/h/config/hooks/x.yaml: field "PreToolUse[0].hooks[2].timeout": expected seconds (a positive number), got "soon"',
      '/h/config/hooks/x.yaml: field "PostToolUse": expected a list of matchers, got "nope"',
    ]);
    assert.equal(parsed.warnings.length, 2);
    assert.match(
      formatProblem(parsed.warnings[0]),
      /x\.yaml: unknown field "PreToolUse\[0\]\.hooks\[0\]\.colour" ignored/,
    );
    assert.match(formatProblem(parsed.warnings[1]), /x\.yaml: unknown hook event "OnFire" ignored/);
  });

  it("says which file does not parse, in one line", () => {
    const parsed = parseHooksFile("/h/hooks.json", '{"hooks": {');
    assert.equal(parsed.errors.length, 1);
    assert.match(formatProblem(parsed.errors[0]), /^\/h\/hooks\.json: not valid JSON: [^\n]+$/);
  });

  it("matches as Claude does: all, exact names, regex", () => {
    const m = (pattern: string, name: string) => compileMatcher(pattern).match(name);
    assert.equal(m("", "Bash"), true);
    assert.equal(m("*", "Bash"), true);
    assert.equal(m("Write|Edit", "Edit"), true);
    assert.equal(m("Write, Edit", "Edit"), true);
    assert.equal(m("Write|Edit", "MultiEdit"), false); // exact names are not substrings
    assert.equal(m("Edit.*", "MultiEdit"), true); // a regex is unanchored
    assert.equal(m("mcp__.*__write", "mcp__fs__write_file"), true);
    assert.match(compileMatcher("(").error ?? "", /not a valid regex/);
  });
});

describe("where hooks come from", () => {
  let dirs: TempDir;
  before(() => {
    dirs = tempDir("islet-shell-src-");
    const hook = "PreToolUse:\n  - hooks: [{ command: 'true' }]\n";
    dirs.write({
      "home/config/hooks/mine.yaml": hook,
      "work/.islet/config/hooks/theirs.yaml": hook,
    });
  });
  after(() => dirs.remove());

  it("holds back a project's hooks until the folder is trusted", async () => {
    const homes = resolveHomes({ home: dirs.path("home"), workdir: dirs.path("work") });
    const files = async (trustedProject: boolean) =>
      (await new ShellHookSource({ homes, trustedProject, warn: () => {} }).discover()).found.map(
        (f) => [f.scope, f.file.slice(dirs.root.length)],
      );
    assert.deepEqual(await files(false), [["global", "/home/config/hooks/mine.yaml"]]);
    assert.deepEqual(await files(true), [
      ["global", "/home/config/hooks/mine.yaml"],
      ["project", "/work/.islet/config/hooks/theirs.yaml"],
    ]);
  });
});
