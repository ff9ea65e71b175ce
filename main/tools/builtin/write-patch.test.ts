import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { executeToolCall } from "../executor.ts";
import { tempWorkspace } from "../test-support.ts";
import type { Workspace } from "../test-support.ts";
import { patchTool } from "./patch.ts";
import { readTool } from "./read.ts";
import { writeTool } from "./write.ts";

async function readFirst(ws: Workspace, name: string, content: string): Promise<string> {
  const file = await ws.file(name, content);
  const read = await executeToolCall(readTool, { path: name }, ws.ctx);
  assert.equal(read.error, false, read.output);
  return file;
}

test("Write creates files and parent directories, then updates them", async () => {
  const ws = await tempWorkspace();
  try {
    const created = await executeToolCall(
      writeTool,
      { path: "a/b/c.txt", content: "one\ntwo\n" },
      ws.ctx,
    );
    assert.deepEqual(
      [created.error, created.output],
      [false, "Created a/b/c.txt (3 lines, 8 bytes)"],
    );
    const updated = await executeToolCall(writeTool, { path: "a/b/c.txt", content: "é" }, ws.ctx);
    assert.deepEqual(
      [updated.error, updated.output],
      [false, "Updated a/b/c.txt (1 line, 2 bytes)"],
    );
    assert.equal(await fs.readFile(path.join(ws.dir, "a/b/c.txt"), "utf8"), "é");
  } finally {
    await ws.cleanup();
  }
});

test("Write to a directory or under a file fails clearly", async () => {
  const ws = await tempWorkspace();
  try {
    await fs.mkdir(path.join(ws.dir, "dir"));
    const dir = await executeToolCall(writeTool, { path: "dir", content: "x" }, ws.ctx);
    assert.deepEqual([dir.error, dir.output], [true, "dir is a directory"]);
    await readFirst(ws, "file.txt", "x");
    const under = await executeToolCall(
      writeTool,
      { path: "file.txt/inner.txt", content: "x" },
      ws.ctx,
    );
    assert.equal(under.error, true);
    assert.match(under.output, /file\.txt\/inner\.txt/);
  } finally {
    await ws.cleanup();
  }
});

test("Patch replaces a unique exact string and keeps $ patterns literal", async () => {
  const ws = await tempWorkspace();
  try {
    const file = await readFirst(ws, "a.ts", "const a = 1;\nconst b = 2;\n");
    const result = await executeToolCall(
      patchTool,
      { path: "a.ts", old_string: "const b = 2;", new_string: "const b = '$&$1';" },
      ws.ctx,
    );
    assert.deepEqual(
      [result.error, result.output],
      [false, "Patched a.ts: replaced 1 occurrence (at line 2)"],
    );
    assert.equal(await fs.readFile(file, "utf8"), "const a = 1;\nconst b = '$&$1';\n");
  } finally {
    await ws.cleanup();
  }
});

test("Patch: not found, ambiguous with a count, replace_all", async () => {
  const ws = await tempWorkspace();
  try {
    const file = await readFirst(ws, "a.txt", "x = 1\nx = 1\nx = 1\n");
    const missing = await executeToolCall(
      patchTool,
      { path: "a.txt", old_string: "y = 1", new_string: "z" },
      ws.ctx,
    );
    assert.equal(missing.error, true);
    assert.match(missing.output, /^old_string not found in a\.txt\. It must match exactly/);
    const ambiguous = await executeToolCall(
      patchTool,
      { path: "a.txt", old_string: "x = 1", new_string: "x = 2" },
      ws.ctx,
    );
    assert.equal(ambiguous.error, true);
    assert.match(ambiguous.output, /^old_string occurs 3 times in a\.txt; .*replace_all/);
    assert.equal(
      await fs.readFile(file, "utf8"),
      "x = 1\nx = 1\nx = 1\n",
      "failed patches change nothing",
    );
    const all = await executeToolCall(
      patchTool,
      { path: "a.txt", old_string: "x = 1", new_string: "x = 2", replace_all: true },
      ws.ctx,
    );
    assert.deepEqual(
      [all.error, all.output],
      [false, "Patched a.txt: replaced 3 occurrences (first at line 1)"],
    );
    assert.equal(await fs.readFile(file, "utf8"), "x = 2\nx = 2\nx = 2\n");
  } finally {
    await ws.cleanup();
  }
});

test("Patch: empty or identical strings, missing file, unread file", async () => {
  const ws = await tempWorkspace();
  try {
    await readFirst(ws, "a.txt", "abc");
    const empty = await executeToolCall(
      patchTool,
      { path: "a.txt", old_string: "", new_string: "x" },
      ws.ctx,
    );
    assert.match(empty.output, /old_string is empty; use Write/);
    const same = await executeToolCall(
      patchTool,
      { path: "a.txt", old_string: "b", new_string: "b" },
      ws.ctx,
    );
    assert.match(same.output, /identical/);
    const missing = await executeToolCall(
      patchTool,
      { path: "no.txt", old_string: "a", new_string: "b" },
      ws.ctx,
    );
    assert.deepEqual([missing.error, missing.output], [true, "no.txt does not exist"]);
    await ws.file("unread.txt", "abc");
    const unread = await executeToolCall(
      patchTool,
      { path: "unread.txt", old_string: "a", new_string: "b" },
      ws.ctx,
    );
    assert.match(unread.output, /has not been read in this session/);
  } finally {
    await ws.cleanup();
  }
});
