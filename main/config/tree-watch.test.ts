/**
 * The folder-tree watcher: a change deep in a tree is reported; a folder created with files
 * already in it is watched and its files reported; a root that does not exist yet is seen once
 * created; an ignored folder is never looked into; a linked folder is followed.
 */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { watchTree } from "./tree-watch.ts";

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(`not seen within 20 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("changes anywhere in the trees are reported, folders that appear included", async () => {
  const dirs = tempDir("islet-tree-watch-");
  dirs.write({
    "root/a/b/deep.md": "1",
    "root/node_modules/x/index.js": "1",
    "elsewhere/linked.md": "1",
  });
  symlinkSync(dirs.path("elsewhere"), dirs.path("root/link"));
  const seen = new Set<string>();
  const errors: Error[] = [];
  const watcher = watchTree([dirs.path("root"), dirs.path("later/plugins")], {
    ignored: (p) => p.split(path.sep).includes("node_modules"),
    onChange: (p) => seen.add(p),
    onError: (e) => errors.push(e),
  });
  try {
    await watcher.ready;
    assert.deepEqual([...seen], [], "nothing is reported for what was there at start");

    dirs.write({ "root/a/b/deep.md": "2" });
    await until("a deep change", () => seen.has(dirs.path("root/a/b/deep.md")));

    // A folder made with its files in one go: they may be there before its watch begins.
    mkdirSync(dirs.path("root/new/inner"), { recursive: true });
    dirs.write({ "root/new/inner/file.md": "1" });
    await until("files of a new folder", () => seen.has(dirs.path("root/new/inner/file.md")));
    dirs.write({ "root/new/inner/file.md": "2", "root/new/inner/second.md": "1" });
    await until("the new folder is watched", () => seen.has(dirs.path("root/new/inner/second.md")));

    dirs.write({ "later/plugins/p/plugin.yaml": "description: x\n" });
    await until("a root created later", () => seen.has(dirs.path("later/plugins/p/plugin.yaml")));

    dirs.write({ "elsewhere/linked.md": "2" });
    await until("a linked folder", () => seen.has(dirs.path("root/link/linked.md")));

    rmSync(dirs.path("root/a"), { recursive: true });
    await until("a removed folder", () => seen.has(dirs.path("root/a")));

    dirs.write({ "root/node_modules/x/index.js": "2" });
    dirs.write({ "root/last.md": "1" });
    await until("a later change", () => seen.has(dirs.path("root/last.md")));
    assert.ok(![...seen].some((p) => p.includes("node_modules")), [...seen].join("\n"));
    assert.deepEqual(errors, []);
  } finally {
    await watcher.close();
    dirs.remove();
  }
});
