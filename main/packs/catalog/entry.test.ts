/** Reading catalog files: lenient (one line per broken entry, the rest listed) and exact about where. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { parseCatalog } from "./entry.ts";
import { defaultCatalogFile } from "./sources.ts";
import { originKey, withoutCredentials } from "./origin-url.ts";
import { formatProblem } from "../../host/problem.ts";

const CATALOG = `# a catalog
packs:
  - name: good
    description: A fine pack
    url: https://example.com/good.git
    ref: v1.2
    tags: [Review, git, review]
    author: Someone
  - name: no-url
    description: missing its url
  - name: bad url
    url: https://example.com/x
  - name: weird
    url: "not a url at all"
  - name: tagged-badly
    url: o/r
    tags: { a: 1 }
  - just a string
  - name: short
    url: owner/repo
    extra: ignored
  - name: good
    url: https://example.com/other
`;

test("a catalog with broken entries lists the good ones and names each broken one in one line", () => {
  const parsed = parseCatalog(CATALOG, "/cat/extra.yaml");
  assert.equal(parsed.error, null);
  assert.deepEqual(parsed.entries, [
    {
      name: "good",
      description: "A fine pack",
      url: "https://example.com/good.git",
      ref: "v1.2",
      tags: ["review", "git"],
      author: "Someone",
    },
    { name: "short", description: "", url: "owner/repo", tags: [] },
  ]);
  assert.deepEqual(parsed.problems.map(formatProblem), [
    '/cat/extra.yaml:9: packs[1] "no-url": url: missing',
    '/cat/extra.yaml:11: packs[2] "bad url": name: expected letters, digits, ".", "-" or "_", got "bad url"',
    '/cat/extra.yaml:14: packs[3] "weird": url: expected a git URL (https://, ssh://, git://, file://, git@host:path) or owner/repo, got "not a url at all"',
    '/cat/extra.yaml:17: packs[4] "tagged-badly": tags: expected a list, got a map',
    "/cat/extra.yaml:18: packs[5]: expected a map with name and url",
    '/cat/extra.yaml:22: packs[7] "good": name: listed twice in this catalog (the first is kept)',
  ]);
  for (const line of parsed.problems.map(formatProblem)) assert.ok(!line.includes("\n"));
});

test("a file that is not a catalog is one error naming the file (and the position for bad YAML)", () => {
  const bad = parseCatalog("packs:\n  - name: [unclosed\n", "/cat/a.yaml");
  assert.match(bad.error ?? "", /^\/cat\/a\.yaml:\d+:\d+: invalid YAML: /);
  assert.deepEqual(bad.entries, []);
  const wrong = parseCatalog("title: my packs\n", "https://example.com/c.yaml");
  assert.equal(
    wrong.error,
    'https://example.com/c.yaml: expected a "packs:" list of plugin packs (name, description, url, ref, tags, author)',
  );
});

test("the default catalog reads without a problem and lists only real git URLs", () => {
  const file = defaultCatalogFile();
  const parsed = parseCatalog(readFileSync(file, "utf8"), file);
  assert.equal(parsed.error, null);
  assert.deepEqual(parsed.problems, []);
  assert.ok(parsed.entries.length >= 3);
  for (const e of parsed.entries) {
    assert.match(e.url, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/, e.name);
    assert.ok(e.description.length > 20, `${e.name} has a description`);
    assert.ok(e.author, `${e.name} has an author`);
  }
  assert.ok(parsed.entries.some((e) => e.tags.includes("claude-code")));
});

test("origin URLs compare without credentials, .git, a trailing slash, or the spelling of GitHub", () => {
  const same = [
    "https://github.com/Owner/Repo",
    "https://user:secret@github.com/owner/repo.git",
    "https://github.com/owner/repo/",
    "git@github.com:owner/repo.git",
    "ssh://git@github.com/owner/repo",
    "owner/repo",
  ];
  for (const url of same) assert.equal(originKey(url), "github.com/owner/repo", url);
  assert.equal(originKey("file:///srv/git/pack.git/"), "file:///srv/git/pack");
  assert.equal(originKey("git://127.0.0.1:9418/pack.git"), "127.0.0.1:9418/pack");
  assert.notEqual(originKey("https://gitlab.com/owner/repo"), originKey("owner/repo"));
  for (const bad of ["", "not a url", "ftp://x/y", "C:\\plugins\\x", "https://host", "./local"])
    assert.equal(originKey(bad), null, bad);
  assert.equal(
    withoutCredentials("https://user:secret@example.com/r.git"),
    "https://example.com/r.git",
  );
});
