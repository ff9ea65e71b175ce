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
  { kind: "plugin-activation", plugin: "dotnet", description: "runs tests", reason: "to test" },
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
});
