// `islet plugins list` says a broken features file once: in its listing, not again as a warning.
import { strict as assert } from "node:assert";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { islet, tempDirs } from "./testing/islet.ts";
import { writeMarketplace } from "./testing/marketplace.ts";

test("a problem the listing shows is not also printed as a warning", async () => {
  const dirs = await tempDirs();
  try {
    const features = path.join(dirs.home, "config", "features");
    await mkdir(features, { recursive: true });
    await writeFile(path.join(features, "plugins.yaml"), "plugins:\n  unsafe: maybe\n");
    const listed = await islet(["plugins", "list", "--home", dirs.home, "--workdir", dirs.workdir]);
    assert.equal(listed.code, 0, listed.stderr);
    const said = (listed.stdout + listed.stderr).split("\n").filter((l) => l.includes("unsafe"));
    assert.equal(said.length, 1, said.join("\n"));
    assert.match(said[0]!, /plugins\.yaml: plugins\.unsafe: expected true or false, got "maybe"/);
  } finally {
    await dirs.clean();
  }
});

test("what a marketplace lists from other repositories is said by the listing, not at every start", async () => {
  const dirs = await tempDirs();
  try {
    await writeMarketplace(dirs.home, [
      { name: "far", source: { source: "github", repo: "someone/far" } },
    ]);
    const args = ["--home", dirs.home, "--workdir", dirs.workdir];
    const listed = await islet(["plugins", "list", ...args]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /near\s+active\s+1 command/);
    assert.match(
      listed.stdout,
      /marketplace\.json: 1 plugin listed from other repositories is not in this pack; install one with islet plugins add mymarket --plugin NAME/,
    );
    assert.doesNotMatch(listed.stderr, /other repositories/);
    // Another command starts the engine the same way: nothing about it.
    const shown = await islet(["plugins", "show", "near", ...args]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.doesNotMatch(shown.stdout + shown.stderr, /other repositories/);
  } finally {
    await dirs.clean();
  }
});
