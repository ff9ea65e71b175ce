/** Where a Claude Code marketplace's entry from another repository is cloned from, checked as any source is. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { remoteSource } from "./remote-entry.ts";

test("a remote entry's source is checked like one typed: GitHub's owner/repo, the sha over the ref, no option-like ref, no path out of the repository", () => {
  const entry = (source: Record<string, unknown>) => ({
    name: "p",
    description: "",
    source,
    entry: { name: "p", source },
  });
  assert.deepEqual(
    remoteSource(entry({ source: "github", repo: "someone/tools", ref: "v1" }), "m.json"),
    { source: "someone/tools", ref: "v1" },
  );
  assert.deepEqual(
    remoteSource(
      entry({
        source: "git-subdir",
        url: "https://example.com/r.git",
        path: "a/b",
        ref: "main",
        sha: "0123456789abcdef0123456789abcdef01234567",
      }),
      "m.json",
    ),
    {
      source: "https://example.com/r.git",
      ref: "0123456789abcdef0123456789abcdef01234567",
      subpath: "a/b",
    },
  );
  assert.throws(
    () =>
      remoteSource(
        entry({ source: "github", repo: "a/b", ref: "--upload-pack=touch x" }),
        "m.json",
      ),
    /ref: "--upload-pack=touch x" is not a valid branch, tag or commit name/,
  );
  assert.throws(
    () =>
      remoteSource(
        entry({ source: "git-subdir", url: "https://example.com/r.git", path: "../../etc" }),
        "m.json",
      ),
    /path: "\.\.\/\.\.\/etc" leads outside the repository/,
  );
  assert.throws(
    () => remoteSource(entry({ source: "github" }), "m.json"),
    /plugin "p": its github source names no repo/,
  );
});
