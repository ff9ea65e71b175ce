// `islet plugins list` says a broken features file once: in its listing, not again as a warning.
import { strict as assert } from "node:assert";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { islet, tempDirs } from "./testing/islet.ts";

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
