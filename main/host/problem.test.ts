import assert from "node:assert/strict";
import { test } from "node:test";
import { formatProblem, ProblemError, problemText } from "./problem.ts";

test("a problem is one line: where, what, why, what to do", () => {
  assert.equal(
    formatProblem({
      source: "plugins",
      file: "/h/plugins/a/index.ts",
      line: 3,
      column: 14,
      title: "Expected ';'",
      cause: "esbuild",
      suggestion: "fix the file and save",
    }),
    "/h/plugins/a/index.ts:3:14: Expected ';' (esbuild); fix the file and save",
  );
  assert.equal(
    formatProblem({ source: "plugins/reload", title: "plugins are off" }),
    "plugins/reload: plugins are off",
  );
  assert.equal(formatProblem({ source: "x", title: "two\n  lines" }), "x: two lines");
  assert.equal(
    formatProblem({ source: "config", file: "/h/a.json", title: "not valid JSON", cause: "at 3" }),
    "/h/a.json: not valid JSON (at 3)",
  );
  const error = new ProblemError({ source: "chat/send", title: "no such conversation" });
  assert.equal(error.message, "chat/send: no such conversation");
});

test("a title that starts with its location is a sentence about it: the location is not repeated", () => {
  const link = {
    source: "sessions",
    file: "/s/a.jsonl",
    title: "/s/a.jsonl is a symbolic link; session files are never followed: skipped",
  };
  assert.equal(formatProblem(link), link.title);
  assert.equal(problemText(link), "is a symbolic link; session files are never followed: skipped");
  const named = { source: "notifier", title: "notifier asks for network", cause: "x.example" };
  assert.equal(formatProblem(named), "notifier asks for network (x.example)");
  // Only a whole word: a title merely starting with the same letters is not about the location.
  assert.equal(
    formatProblem({ source: "plugins", title: "plugins/x is odd" }),
    "plugins: plugins/x is odd",
  );
  assert.equal(problemText({ source: "mcp", title: "down" }), "down");
});
