import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { z } from "zod";
import { defineTool } from "./define.ts";
import { executeToolCall } from "./executor.ts";
import { checkGuard, recordSeen, resolvePaths } from "./guard.ts";
import { readTool } from "./builtin/read.ts";
import { writeTool } from "./builtin/write.ts";
import { patchTool } from "./builtin/patch.ts";
import { tempWorkspace } from "./test-support.ts";

test("resolvePaths makes every list absolute and drops empty entries", () => {
  const paths = resolvePaths(
    { read: ["a.txt", "/abs/b"], guard: [""], record: ["sub/../c"] },
    "/work",
  );
  assert.deepEqual(paths, {
    read: [path.resolve("/work/a.txt"), path.resolve("/abs/b")],
    write: [],
    record: [path.resolve("/work/c")],
    guard: [],
    clear: [],
  });
});

test("write to an existing file that was never read fails with a clear error", async () => {
  const ws = await tempWorkspace();
  try {
    await ws.file("a.txt", "old\n");
    const result = await executeToolCall(writeTool, { path: "a.txt", content: "new" }, ws.ctx);
    assert.equal(result.error, true);
    assert.equal(
      result.output,
      "a.txt exists but has not been read in this session. Read it first, then retry.",
    );
    assert.equal(await fs.readFile(path.join(ws.dir, "a.txt"), "utf8"), "old\n");
  } finally {
    await ws.cleanup();
  }
});

test("read then write succeeds, and the write is recorded so a second write needs no read", async () => {
  const ws = await tempWorkspace();
  try {
    await ws.file("a.txt", "old\n");
    assert.equal((await executeToolCall(readTool, { path: "a.txt" }, ws.ctx)).error, false);
    const first = await executeToolCall(
      writeTool,
      { path: "a.txt", content: "new content" },
      ws.ctx,
    );
    assert.equal(first.error, false, first.output);
    const second = await executeToolCall(
      patchTool,
      { path: "a.txt", old_string: "new", new_string: "newer" },
      ws.ctx,
    );
    assert.equal(second.error, false, second.output);
    assert.equal(await fs.readFile(path.join(ws.dir, "a.txt"), "utf8"), "newer content");
  } finally {
    await ws.cleanup();
  }
});

test("a file changed on disk after it was read must be read again", async () => {
  const ws = await tempWorkspace();
  try {
    const file = await ws.file("a.txt", "one\n");
    await executeToolCall(readTool, { path: "a.txt" }, ws.ctx);
    await fs.writeFile(file, "changed by someone else\n");
    const result = await executeToolCall(
      patchTool,
      { path: file, old_string: "one", new_string: "two" },
      ws.ctx,
    );
    assert.equal(result.error, true);
    assert.equal(
      result.output,
      "a.txt has changed on disk since it was last read. Read it again, then retry.",
    );
    await executeToolCall(readTool, { path: "a.txt" }, ws.ctx);
    const retry = await executeToolCall(writeTool, { path: "a.txt", content: "mine" }, ws.ctx);
    assert.equal(retry.error, false, retry.output);
  } finally {
    await ws.cleanup();
  }
});

test("a new file needs no read; creating it records it", async () => {
  const ws = await tempWorkspace();
  try {
    const result = await executeToolCall(
      writeTool,
      { path: "deep/new.txt", content: "hi" },
      ws.ctx,
    );
    assert.equal(result.error, false, result.output);
    assert.ok(ws.ctx.state.seenFiles.has(path.join(ws.dir, "deep/new.txt")));
  } finally {
    await ws.cleanup();
  }
});

test("clear forgets a file (e.g. after deleting it) so it must be read again", async () => {
  const ws = await tempWorkspace();
  const remove = defineTool({
    name: "Remove",
    description: "Deletes a file",
    args: { path: z.string() },
    parallel: false,
    paths: (args) => ({ write: [args.path], clear: [args.path] }),
    async execute(args, ctx) {
      await fs.rm(path.resolve(ctx.workdir, args.path));
      return "removed";
    },
  });
  try {
    const file = await ws.file("a.txt", "x");
    await executeToolCall(readTool, { path: "a.txt" }, ws.ctx);
    assert.ok(ws.ctx.state.seenFiles.has(file));
    assert.equal((await executeToolCall(remove, { path: "a.txt" }, ws.ctx)).error, false);
    assert.equal(ws.ctx.state.seenFiles.has(file), false);
    // Recreated by someone else: the model never saw this content.
    await ws.file("a.txt", "y");
    const result = await executeToolCall(writeTool, { path: "a.txt", content: "z" }, ws.ctx);
    assert.equal(result.error, true);
    assert.match(result.output, /has not been read/);
  } finally {
    await ws.cleanup();
  }
});

test("guard applies to plugin tools through paths(), and can be switched off", async () => {
  const ws = await tempWorkspace();
  const pluginWrite = defineTool({
    name: "Notepad",
    description: "Writes",
    source: "plugin",
    args: { path: z.string() },
    parallel: false,
    paths: (args) => ({ write: [args.path], guard: [args.path] }),
    async execute() {
      return "wrote";
    },
  });
  try {
    await ws.file("note.txt", "x");
    const guarded = await executeToolCall(pluginWrite, { path: "note.txt" }, ws.ctx);
    assert.equal(guarded.error, true);
    const free = await executeToolCall(pluginWrite, { path: "note.txt" }, ws.ctx, {
      readBeforeWrite: false,
    });
    assert.deepEqual([free.error, free.output], [false, "wrote"]);
  } finally {
    await ws.cleanup();
  }
});

test("recordSeen forgets paths that no longer exist; checkGuard ignores directories", async () => {
  const ws = await tempWorkspace();
  try {
    const gone = path.join(ws.dir, "gone.txt");
    ws.ctx.state.seenFiles.set(gone, { mtimeMs: 1, size: 1 });
    await recordSeen(ws.ctx.state, [gone]);
    assert.equal(ws.ctx.state.seenFiles.has(gone), false);
    assert.equal(await checkGuard(ws.ctx.state, [ws.dir], ws.dir), null);
  } finally {
    await ws.cleanup();
  }
});
