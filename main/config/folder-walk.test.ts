import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { walkFolder, type FolderWalkOptions } from "./folder-walk.ts";

async function tree(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "islet-folder-walk-"));
  for (const dir of [".git/objects", "node_modules/dep", "b/c/d/e", "a"])
    await mkdir(path.join(root, dir), { recursive: true });
  for (const file of [
    ".git/HEAD",
    "node_modules/dep/x.js",
    "b/c/d/e/deep.txt",
    "b/c/mid.txt",
    "a/one.txt",
    "top.txt",
  ])
    await writeFile(path.join(root, file), "");
  await symlink(path.join(root, "b"), path.join(root, "a", "to-b"));
  return root;
}

const walked = async (root: string, opts?: FolderWalkOptions, stopAfter = Infinity) => {
  const seen: string[] = [];
  await walkFolder(
    root,
    ({ rel, depth }) => {
      seen.push(`${rel}@${depth}`);
      return seen.length < stopAfter;
    },
    opts,
  );
  return seen;
};

test("every entry below the root, a folder before what it holds; .git and node_modules and links not entered", async () => {
  const root = await tree();
  try {
    assert.deepEqual(await walked(root, { sorted: true }), [
      ".git@0",
      "a@0",
      "a/one.txt@1",
      "a/to-b@1",
      "b@0",
      "b/c@1",
      "b/c/d@2",
      "b/c/d/e@3",
      "b/c/d/e/deep.txt@4",
      "b/c/mid.txt@2",
      "node_modules@0",
      "top.txt@0",
    ]);
    const unsorted = await walked(root);
    assert.deepEqual([...unsorted].sort(), (await walked(root, { sorted: true })).sort());
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("maxDepth, skip, a false from the visit and a missing root", async () => {
  const root = await tree();
  try {
    const shallow = await walked(root, { sorted: true, maxDepth: 1 });
    assert.ok(shallow.includes("b/c@1") && !shallow.includes("b/c/d@2"), shallow.join(" "));
    const gitToo = await walked(root, { sorted: true, skip: () => false });
    assert.ok(gitToo.includes(".git/HEAD@1") && gitToo.includes("node_modules/dep/x.js@2"));
    assert.deepEqual(await walked(root, { sorted: true }, 3), [".git@0", "a@0", "a/one.txt@1"]);
    assert.deepEqual(await walked(path.join(root, "missing")), []);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("parallel: what the visit throws rejects the walk", async () => {
  const root = await tree();
  try {
    await assert.rejects(
      walkFolder(
        root,
        ({ rel }) => {
          if (rel === "b/c/mid.txt") throw new Error("no mid");
        },
        { parallel: true },
      ),
      /no mid/,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
