import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { executeToolCall } from "../executor.ts";
import { tempWorkspace } from "../test-support.ts";
import { readTool } from "./read.ts";

test("Read numbers lines like cat -n and records the file as seen", async () => {
  const ws = await tempWorkspace();
  try {
    const file = await ws.file("src/a.txt", "alpha\nbeta\r\ngamma\n");
    const result = await executeToolCall(readTool, { path: "src/a.txt" }, ws.ctx);
    assert.deepEqual(
      [result.error, result.output],
      [false, "     1\talpha\n     2\tbeta\n     3\tgamma"],
    );
    const stat = await fs.stat(file);
    assert.deepEqual(ws.ctx.state.seenFiles.get(file), { mtimeMs: stat.mtimeMs, size: stat.size });
  } finally {
    await ws.cleanup();
  }
});

test("Read offset and limit show a window and say so", async () => {
  const ws = await tempWorkspace();
  try {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n");
    const file = await ws.file("ten.txt", lines);
    const result = await executeToolCall(readTool, { path: file, offset: 4, limit: 2 }, ws.ctx);
    assert.equal(
      result.output,
      "     4\tline 4\n     5\tline 5\n[showing lines 4-5 of 10; use offset to read more]",
    );
    const tail = await executeToolCall(readTool, { path: "ten.txt", offset: 9 }, ws.ctx);
    assert.equal(
      tail.output,
      "     9\tline 9\n    10\tline 10\n[showing lines 9-10 of 10; use offset to read more]",
    );
    const past = await executeToolCall(readTool, { path: "ten.txt", offset: 11 }, ws.ctx);
    assert.deepEqual(
      [past.error, past.output],
      [true, "ten.txt has 10 lines; offset 11 is past the end"],
    );
  } finally {
    await ws.cleanup();
  }
});

test("Read errors: missing file, directory, binary file; empty file is fine", async () => {
  const ws = await tempWorkspace();
  try {
    const missing = await executeToolCall(readTool, { path: "nope.txt" }, ws.ctx);
    assert.deepEqual([missing.error, missing.output], [true, "nope.txt does not exist"]);
    await fs.mkdir(path.join(ws.dir, "dir"));
    const dir = await executeToolCall(readTool, { path: "dir" }, ws.ctx);
    assert.deepEqual([dir.error, dir.output], [true, "dir is a directory; use Ls to list it"]);
    await fs.writeFile(path.join(ws.dir, "img.bin"), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]));
    const binary = await executeToolCall(readTool, { path: "img.bin" }, ws.ctx);
    assert.deepEqual(
      [binary.error, binary.output],
      [true, "img.bin is a binary file (5 B); Read shows text files only"],
    );
    assert.equal(ws.ctx.state.seenFiles.size, 0, "failed reads record nothing");
    await ws.file("empty.txt");
    const empty = await executeToolCall(readTool, { path: "empty.txt" }, ws.ctx);
    assert.deepEqual([empty.error, empty.output], [false, "(empty.txt is empty)"]);
  } finally {
    await ws.cleanup();
  }
});

test("Read cuts very long lines and validates its arguments", async () => {
  const ws = await tempWorkspace();
  try {
    await ws.file("min.js", "x".repeat(5000));
    const result = await executeToolCall(readTool, { path: "min.js" }, ws.ctx);
    assert.equal(result.output, `     1\t${"x".repeat(2000)} [… line cut]`);
    const bad = await executeToolCall(readTool, { path: "min.js", offset: 0 }, ws.ctx);
    assert.equal(bad.error, true);
    assert.match(bad.output, /^Invalid arguments for Read: "offset": /);
  } finally {
    await ws.cleanup();
  }
});
