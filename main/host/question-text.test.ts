import assert from "node:assert/strict";
import { test } from "node:test";
import { dialogText } from "./question-text.ts";
import { ANSWERS, NOBODY_ANSWERS, type Question } from "./questions.ts";

const questions: Question[] = [
  { kind: "approval", tool: "Bash", arguments: { command: "rm -rf build" }, workdir: "/w" },
  {
    kind: "permissions",
    plugin: "gotify",
    dir: "/h/plugins/gotify",
    requested: [{ kind: "network", target: "push.example.com", reason: "posts notifications" }],
    granted: [],
  },
  { kind: "workspace-trust", folder: "/w", heldBack: ["unsafe mode"] },
  {
    kind: "plugin-activation",
    plugin: "dotnet",
    pluginKind: "runner",
    description: "runs tests",
    reason: "to test",
    details: ["runs `dotnet test` in container mcr.microsoft.com/dotnet/sdk:8.0"],
  },
  {
    kind: "pack-install",
    pack: "tools",
    source: "https://example.com/tools.git",
    ref: "v1",
    commit: "0123456789abcdef",
    scope: "global",
    plugins: [
      {
        name: "notify",
        description: "pings",
        format: "islet",
        permissions: [
          { kind: "network", target: "push.example.com", reason: "posts notifications" },
        ],
      },
      { name: "quiet", description: "", format: "claude", permissions: [] },
    ],
  },
  {
    kind: "pack-update",
    pack: "tools",
    source: "https://example.com/tools.git",
    from: "aaaaaaaaaaaa",
    to: "bbbbbbbbbbbb",
    commits: [{ hash: "bbbbbbbbbbbb", subject: "Add exec", author: "Ann" }],
    files: [{ path: "notify/index.ts", change: "modified" }],
    plugins: [
      {
        name: "notify",
        description: "pings",
        format: "islet",
        permissions: [{ kind: "exec", target: "", reason: "runs notify-send" }],
      },
    ],
    added: [],
    removed: ["old"],
  },
  {
    kind: "runner-install",
    plugin: "dotnet",
    command: "docker pull mcr.microsoft.com/dotnet/sdk:8.0",
    reason: "docker image inspect: no such image",
  },
];

test("every dialog offers valid answers, and its default (Escape, Enter) is the safe one", () => {
  for (const q of questions) {
    const text = dialogText(q);
    assert.ok(text.buttons.length >= 2, q.kind);
    for (const b of text.buttons) assert.ok(ANSWERS[q.kind].safeParse(b.answer).success, b.label);
    assert.equal(text.buttons[0].answer, NOBODY_ANSWERS[q.kind], q.kind);
  }
});

test("the dialog says what is asked: the command, each permission with its reason, what trust enables", () => {
  assert.match(dialogText(questions[0]).detail, /rm -rf build/);
  assert.match(dialogText(questions[1]).detail, /network push\.example\.com — posts notifications/);
  assert.match(dialogText(questions[2]).detail, /• unsafe mode/);
  assert.match(
    dialogText(questions[6]).detail,
    /^docker pull mcr\.microsoft\.com\/dotnet\/sdk:8\.0\n/,
  );
  const install = dialogText(questions[4]);
  assert.match(
    install.message,
    /Install tools from https:\/\/example\.com\/tools\.git \(ref v1, commit 0123456789ab\)/,
  );
  assert.match(
    install.detail,
    /notify — pings\n\s+network push\.example\.com — posts notifications/,
  );
  assert.match(install.detail, /quiet \(Claude Code plugin\)\n\s+asks for nothing/);
  const update = dialogText(questions[5]);
  assert.match(update.detail, /bbbbbbbb Add exec \(Ann\)/);
  assert.match(update.detail, /modified notify\/index\.ts/);
  assert.match(update.detail, /removes: old/);
  assert.match(
    update.detail,
    /asks for more than you granted:\n\s+notify — pings\n\s+new: run programs/,
  );
});

test("the activation dialog shows every consent detail line and the reason", () => {
  const text = dialogText({
    kind: "plugin-activation",
    plugin: "dotnet",
    pluginKind: "runner",
    description: "Runs .NET tests.",
    reason: "to run the tests",
    details: ["runs `dotnet test` in container sdk:8.0", "mounts /w at /app (read-only)"],
  });
  assert.equal(text.message, "Activate the CLI-tool plugin dotnet?");
  assert.match(
    text.detail,
    /• runs `dotnet test` in container sdk:8.0\n• mounts \/w at \/app \(read-only\)/,
  );
  assert.match(text.detail, /Why: to run the tests/);
});

test("an approval whose always no longer holds says what changed before the arguments", () => {
  const text = dialogText<"approval">({
    kind: "approval",
    tool: "mcp__notes__c",
    arguments: { note: "x" },
    workdir: "/w",
    changed: ["changed its description", "Before: Reads", "Now: Mails"],
  });
  assert.equal(
    text.detail,
    'changed its description\nBefore: Reads\nNow: Mails\n\n{\n  "note": "x"\n}',
  );
  assert.ok(
    text.buttons.some((b) => b.answer === "always"),
    "always can be given again",
  );
});

test("a pack install a link asked for says so first, with the folder it installs", () => {
  const text = dialogText({
    kind: "pack-install",
    pack: "linked",
    source: "https://example.com/tools.git",
    ref: "main",
    subpath: "tools/linked",
    via: "link",
    scope: "global",
    plugins: [{ name: "linked", description: "", format: "islet", permissions: [] }],
  });
  assert.equal(text.message, "A link opened Islet and asks for this install.");
  assert.match(
    text.detail,
    /Install linked from https:\/\/example\.com\/tools\.git \(ref main, subpath tools\/linked\)/,
  );
  assert.deepEqual(
    text.buttons.map((b) => b.answer),
    ["cancel", "install"],
  );
});
