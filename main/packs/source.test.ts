/** What `islet plugins add` takes: URL kinds, owner/repo, folders, default names, refs, subpaths. */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { checkRef, checkSubpath, defaultPackName, parseSource } from "./source.ts";

test("git URLs of every kind, owner/repo and folders", async () => {
  const cwd = await mkdtemp(path.join(tmpdir(), "islet-source-"));
  try {
    await mkdir(path.join(cwd, "local", "islet-plugin-here"), { recursive: true });
    const parse = (s: string) => parseSource(s, { cwd, home: cwd });
    const cases: [string, Record<string, unknown>][] = [
      [
        "https://github.com/user/islet-plugin-metrics",
        { transport: "https", host: "github.com", defaultName: "metrics" },
      ],
      [
        "https://gitlab.example.com:8443/g/sub/tools.git",
        { transport: "https", host: "gitlab.example.com:8443", defaultName: "tools" },
      ],
      [
        "git@github.com:user/islet-plugin-metrics.git",
        { transport: "ssh", host: "github.com", user: "git", defaultName: "metrics" },
      ],
      [
        "ssh://git@example.com:2222/srv/repo.git",
        { transport: "ssh", host: "example.com:2222", defaultName: "repo" },
      ],
      ["git://127.0.0.1:9418/pack.git", { transport: "git", defaultName: "pack" }],
      ["file:///srv/git/islet-plugin-x.git", { transport: "file", host: "", defaultName: "x" }],
      [
        "user/repo",
        { url: "https://github.com/user/repo.git", host: "github.com", defaultName: "repo" },
      ],
      [
        "user/islet-plugin-thing.git",
        { url: "https://github.com/user/islet-plugin-thing.git", defaultName: "thing" },
      ],
    ];
    for (const [input, want] of cases) {
      const got = await parse(input);
      assert.equal(got.kind, "git", input);
      for (const [k, v] of Object.entries(want))
        assert.equal((got as unknown as Record<string, unknown>)[k], v, `${input} ${k}`);
    }
    const folder = await parse("./local/islet-plugin-here");
    assert.deepEqual(folder, {
      kind: "local",
      path: path.join(cwd, "local", "islet-plugin-here"),
      defaultName: "here",
    });
    // A relative path that exists is a folder even when it looks like owner/repo.
    assert.equal((await parse("local/islet-plugin-here")).kind, "local");
    assert.equal((await parse("~/local")).kind, "local");
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
});

test("default names, refs and subpaths", () => {
  assert.equal(defaultPackName("https://x/y/islet-plugin-a.git/"), "a");
  assert.equal(defaultPackName("islet-plugin-"), "islet-plugin-");
  for (const ok of ["main", "v1.2.0", "feature/x", "abc1234", "release-2026.11"])
    assert.equal(checkRef(ok), ok);
  for (const bad of [
    "-x",
    "a..b",
    "a b",
    "a~1",
    "a^",
    "a:b",
    "HEAD@{1}",
    "x.lock",
    "/x",
    "x/",
    "a\\b",
    "a\nb",
  ])
    assert.throws(() => checkRef(bad), /not a valid branch, tag or commit/, bad);
  assert.equal(checkSubpath("tools/./metrics/"), "tools/metrics");
  assert.equal(checkSubpath("."), undefined);
  assert.equal(checkSubpath("tools\\metrics"), "tools/metrics");
  assert.throws(() => checkSubpath("../x"), /leads outside/);
  assert.throws(() => checkSubpath("a/../../x"), /leads outside/);
  assert.throws(() => checkSubpath("/abs"), /absolute/);
  assert.throws(() => checkSubpath("C:/x"), /absolute/);
  assert.throws(() => checkSubpath("~/x"), /absolute/);
});

test("a folder that is a git repository (work tree or bare) is a file:// git source", async () => {
  const cwd = await mkdtemp(path.join(tmpdir(), "islet-source-git-"));
  try {
    const work = path.join(cwd, "islet-plugin-work");
    const bare = path.join(cwd, "served.git");
    await mkdir(path.join(work, ".git"), { recursive: true });
    for (const part of ["objects", "refs"]) await mkdir(path.join(bare, part), { recursive: true });
    await writeFile(path.join(bare, "HEAD"), "ref: refs/heads/main\n");
    const parse = (s: string) => parseSource(s, { cwd, home: cwd });
    assert.deepEqual(await parse("./islet-plugin-work"), {
      kind: "git",
      url: pathToFileURL(work).href,
      transport: "file",
      host: "",
      defaultName: "work",
    });
    assert.equal((await parse(bare)).kind, "git");
    assert.equal(((await parse(bare)) as { defaultName: string }).defaultName, "served");
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
});
