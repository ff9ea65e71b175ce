/** `islet plugins search` through the real binary, with catalogs added in the home's settings.json. */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { gitRepos, gitTestEnv, pluginFiles } from "../packs/testing/git-servers.ts";
import { islet, tempDirs } from "./testing/islet.ts";
import { writeMarketplace } from "./testing/marketplace.ts";

const EXTRA = `packs:
  - name: review-kit
    description: Reviews pull requests
    url: https://example.com/review-kit.git
    tags: [review, git]
    author: Someone
  - name: broken
    description: has no url
`;

test("search lists matching packs of the default and the settings' catalogs; problems go to stderr", async () => {
  const dirs = await tempDirs();
  try {
    await mkdir(dirs.home, { recursive: true });
    const extra = path.join(dirs.root, "extra.yaml");
    await writeFile(extra, EXTRA);
    await writeFile(
      path.join(dirs.home, "settings.json"),
      JSON.stringify({ catalogs: [extra, path.join(dirs.root, "gone.yaml")] }),
    );
    const text = await islet(["plugins", "search", "review", "--home", dirs.home]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^review-kit\n {2}Reviews pull requests\n {2}https:\/\/example\.com\/review-kit\.git · review, git · Someone\n/m,
    );
    assert.match(text.stdout, /^claude-code-plugins$/m, "the default catalog is searched too");
    assert.doesNotMatch(text.stdout, /^wshobson-agents/m);
    assert.deepEqual(text.stderr.trim().split("\n"), [
      `warning: ${extra}:7: packs[1] "broken": url: missing`,
      `warning: ${path.join(dirs.root, "gone.yaml")}: cannot read the catalog (no such file)`,
    ]);

    const json = await islet(["plugins", "search", "--tag", "git", "--json", "--home", dirs.home]);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as {
      packs: { name: string; installed: unknown; catalog: string }[];
      catalogs: { source: string; state: string }[];
    };
    assert.ok(parsed.packs.every((p) => p.installed === null));
    assert.ok(parsed.packs.some((p) => p.name === "review-kit" && p.catalog === extra));
    assert.deepEqual(
      parsed.catalogs.map((c) => c.state),
      ["ok", "ok", "error"],
    );

    const none = await islet(["plugins", "search", "nothing-like-this", "--home", dirs.home]);
    assert.equal(none.stdout, 'No pack in the catalogs matches "nothing-like-this".\n');
  } finally {
    await dirs.clean();
  }
});

test("search marks a pack installed by `islet plugins add` of the same repository, however spelled", async () => {
  const dirs = await tempDirs();
  await using repos = await gitRepos();
  try {
    const repo = await repos.create("islet-plugin-hello", pluginFiles("", { name: "hello" }));
    await repo.commit("hello");
    await mkdir(dirs.home, { recursive: true });
    const catalog = path.join(dirs.root, "catalog.yaml");
    // The catalog spells it with .git and a trailing slash; add gets the plain file URL.
    await writeFile(
      catalog,
      `packs:\n  - name: hello\n    description: Says hello\n    url: ${repo.fileUrl}/\n`,
    );
    await writeFile(path.join(dirs.home, "settings.json"), JSON.stringify({ catalogs: [catalog] }));
    const env = { ...gitTestEnv(), NO_COLOR: "1" } as Record<string, string>;
    const added = await islet(
      [
        "plugins",
        "add",
        repo.fileUrl.replace(/\.git$/, ""),
        "--global",
        "--yes",
        "--name",
        "greeting",
        "--home",
        dirs.home,
        "--workdir",
        dirs.workdir,
      ],
      env,
    );
    assert.equal(added.code, 0, added.stderr);
    const found = await islet(["plugins", "search", "hello", "--home", dirs.home], env);
    assert.match(found.stdout, /^hello {2}installed as greeting \(global\)$/m);
  } finally {
    await dirs.clean();
  }
});

test("search finds what an installed marketplace lists from other repositories, and how to add it", async () => {
  const dirs = await tempDirs();
  try {
    await writeMarketplace(dirs.home, [
      {
        name: "payments-kit",
        description: "Payments with Stripe",
        source: { source: "github", repo: "someone/payments-kit" },
      },
      { name: "from-npm", description: "Stripe too", source: { source: "npm", package: "x" } },
      { name: "figma", description: "Design files", source: { source: "github", repo: "o/f" } },
    ]);
    const text = await islet(["plugins", "search", "stripe", "--home", dirs.home]);
    assert.equal(text.code, 0, text.stderr);
    const [, listed] = text.stdout.split(
      "Listed by marketplaces you installed, each installed as a pack of its own:\n\n",
    );
    assert.ok(listed, text.stdout);
    assert.match(
      listed,
      /^payments-kit {2}\(listed by mymarket\)\n {2}Payments with Stripe\n {2}someone\/payments-kit\n {2}islet plugins add mymarket --plugin payments-kit --global\n/,
    );
    // One that cannot be installed says why, with no command to run.
    assert.match(
      listed,
      /^from-npm {2}\(listed by mymarket\)\n {2}Stripe too\n {2}cannot be installed/m,
    );
    assert.doesNotMatch(listed, /--plugin from-npm|figma/);

    const json = await islet(["plugins", "search", "stripe", "--json", "--home", dirs.home]);
    const parsed = JSON.parse(json.stdout) as { listed: { name: string; listedBy: string }[] };
    assert.deepEqual(
      parsed.listed.map((l) => [l.name, l.listedBy]),
      [
        ["payments-kit", "mymarket"],
        ["from-npm", "mymarket"],
      ],
    );
    // A blank search lists catalogs only: a marketplace may list hundreds.
    const all = await islet(["plugins", "search", "--home", dirs.home]);
    assert.doesNotMatch(all.stdout, /Listed by marketplaces/);
  } finally {
    await dirs.clean();
  }
});
