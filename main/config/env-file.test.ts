import assert from "node:assert/strict";
import { test } from "node:test";
import { loadEnvFile, parseEnvFile } from "./env-file.ts";

test("env files: comments, export, quotes, inline comments", () => {
  const env = parseEnvFile(
    '# keys\nexport A=1\nB = "two words"\nC=\'lit $x\'\nD=plain # note\nE="line\\nbreak"\n\n',
    "secrets.env",
  );
  assert.deepEqual(env, { A: "1", B: "two words", C: "lit $x", D: "plain", E: "line\nbreak" });
});

test("a malformed line names the file and line", () => {
  assert.throws(
    () => parseEnvFile("A=1\nnot a pair\n", "/x/secrets.env"),
    /\/x\/secrets\.env:2: expected KEY=VALUE/,
  );
});

test("a missing default file is fine; a missing named file is an error", () => {
  assert.deepEqual(loadEnvFile("/nonexistent/secrets.env", false), {});
  assert.throws(
    () => loadEnvFile("/nonexistent/keys.env", true),
    /\/nonexistent\/keys\.env: cannot read env file \(ENOENT\)/,
  );
});
