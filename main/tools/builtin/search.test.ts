import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { executeToolCall } from "../executor.ts";
import { tempWorkspace, touch } from "../test-support.ts";
import type { Workspace } from "../test-support.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { lsTool } from "./ls.ts";

async function project(ws: Workspace): Promise<void> {
  await touch(await ws.file("src/old.ts", "export const old = 1;\n"), 300);
  await touch(await ws.file("src/new.ts", "export const fresh = 2;\n// TODO: more\n"), 10);
  await touch(
    await ws.file("src/lib/mid.ts", "import { old } from '../old';\nconst todo = old;\n"),
    100,
  );
  await touch(await ws.file("README.md", "# Title\nTODO list\n"), 200);
  await ws.file("node_modules/dep/index.ts", "TODO in a dependency\n");
  await ws.file(".git/config", "TODO in git\n");
  await fs.writeFile(path.join(ws.dir, "src/blob.bin"), Buffer.from("TODO\0binary"));
}

async function run(
  ws: Workspace,
  tool: typeof globTool,
  args: Record<string, unknown>,
): Promise<string> {
  const result = await executeToolCall(tool, args, ws.ctx);
  assert.equal(result.error, false, result.output);
  return result.output;
}

test("Glob lists matches newest first, skipping node_modules and .git", async () => {
  const ws = await tempWorkspace();
  try {
    await project(ws);
    assert.equal(
      await run(ws, globTool, { pattern: "**/*.ts" }),
      "src/new.ts\nsrc/lib/mid.ts\nsrc/old.ts",
    );
    assert.equal(
      await run(ws, globTool, { pattern: "*.ts", path: "src" }),
      "src/new.ts\nsrc/old.ts",
    );
    assert.equal(
      await run(ws, globTool, { pattern: "node_modules/**/*.ts" }),
      "node_modules/dep/index.ts",
    );
    assert.equal(await run(ws, globTool, { pattern: "**/*.py" }), "No files match **/*.py");
    assert.equal(await run(ws, globTool, { pattern: ".git/*" }), ".git/config");
    assert.equal(await run(ws, globTool, { pattern: ".gitx/**" }), "No files match .gitx/**");
    const abs = await run(ws, globTool, { pattern: "**/*.md", path: ws.dir });
    assert.equal(abs, "README.md");
  } finally {
    await ws.cleanup();
  }
});

test("Glob caps the list at 100 and errors on a missing directory", async () => {
  const ws = await tempWorkspace();
  try {
    for (let i = 0; i < 105; i++) await ws.file(`many/f${i}.txt`);
    const output = await run(ws, globTool, { pattern: "many/*.txt" });
    const lines = output.split("\n");
    assert.equal(lines.length, 101);
    assert.equal(
      lines[100],
      "[105 files match; showing the 100 newest. Narrow the pattern or path.]",
    );
    const missing = await executeToolCall(globTool, { pattern: "*", path: "nowhere" }, ws.ctx);
    assert.deepEqual([missing.error, missing.output], [true, "nowhere does not exist"]);
  } finally {
    await ws.cleanup();
  }
});

test("Grep files_with_matches (default), count and content modes", async () => {
  const ws = await tempWorkspace();
  try {
    await project(ws);
    assert.equal(await run(ws, grepTool, { pattern: "TODO" }), "README.md\nsrc/new.ts");
    assert.equal(
      await run(ws, grepTool, { pattern: "todo", case_insensitive: true, output_mode: "count" }),
      "README.md:1\nsrc/new.ts:1\nsrc/lib/mid.ts:1",
    );
    assert.equal(
      await run(ws, grepTool, { pattern: "export const \\w+", output_mode: "content" }),
      "src/new.ts:1:export const fresh = 2;\nsrc/old.ts:1:export const old = 1;",
    );
    assert.equal(
      await run(ws, grepTool, { pattern: "nothing-matches-this" }),
      "No matches for nothing-matches-this",
    );
  } finally {
    await ws.cleanup();
  }
});

test("Grep glob filter, single-file path, context lines and max_results", async () => {
  const ws = await tempWorkspace();
  try {
    await project(ws);
    assert.equal(await run(ws, grepTool, { pattern: "TODO", glob: "*.md" }), "README.md");
    assert.equal(await run(ws, grepTool, { pattern: "old", glob: "src/lib/**" }), "src/lib/mid.ts");
    assert.equal(
      await run(ws, grepTool, {
        pattern: "const todo",
        path: "src/lib/mid.ts",
        output_mode: "content",
        context: 1,
      }),
      "src/lib/mid.ts-1-import { old } from '../old';\nsrc/lib/mid.ts:2:const todo = old;",
    );
    await ws.file("many.txt", Array.from({ length: 10 }, (_, i) => `hit ${i}`).join("\n"));
    assert.equal(
      await run(ws, grepTool, {
        pattern: "hit",
        path: "many.txt",
        output_mode: "content",
        max_results: 2,
      }),
      "many.txt:1:hit 0\nmany.txt:2:hit 1\n[results capped at 2; narrow the pattern, path or glob, or raise max_results]",
    );
  } finally {
    await ws.cleanup();
  }
});

test("Grep context separates distant groups with --", async () => {
  const ws = await tempWorkspace();
  try {
    await ws.file("f.txt", "a\nX\nb\nc\nd\ne\nX\nf\n");
    assert.equal(
      await run(ws, grepTool, { pattern: "X", path: "f.txt", output_mode: "content", context: 1 }),
      "f.txt-1-a\nf.txt:2:X\nf.txt-3-b\n--\nf.txt-6-e\nf.txt:7:X\nf.txt-8-f",
    );
  } finally {
    await ws.cleanup();
  }
});

test("Grep errors: invalid regex and missing path", async () => {
  const ws = await tempWorkspace();
  try {
    const bad = await executeToolCall(grepTool, { pattern: "(unclosed" }, ws.ctx);
    assert.equal(bad.error, true);
    assert.match(bad.output, /^Invalid regular expression: /);
    const missing = await executeToolCall(grepTool, { pattern: "x", path: "nowhere" }, ws.ctx);
    assert.deepEqual([missing.error, missing.output], [true, "nowhere does not exist"]);
  } finally {
    await ws.cleanup();
  }
});

test("Ls lists directories first with types and sizes", async () => {
  const ws = await tempWorkspace();
  try {
    await ws.file("b.txt", "12345");
    await ws.file("a.txt", "");
    await fs.mkdir(path.join(ws.dir, "zdir"));
    await fs.mkdir(path.join(ws.dir, "adir"));
    await fs.symlink("b.txt", path.join(ws.dir, "link"));
    await fs.symlink("missing", path.join(ws.dir, "dangling"));
    assert.equal(
      await run(ws, lsTool, {}),
      ".:\nadir/\nzdir/\na.txt  (0 B)\nb.txt  (5 B)\ndangling -> missing  (broken link)\nlink -> b.txt  (5 B)",
    );
    assert.equal(await run(ws, lsTool, { path: "adir" }), "adir is empty");
    const file = await executeToolCall(lsTool, { path: "b.txt" }, ws.ctx);
    assert.deepEqual(
      [file.error, file.output],
      [true, "b.txt is a file, not a directory; use Read to read it"],
    );
    const missing = await executeToolCall(lsTool, { path: "nope" }, ws.ctx);
    assert.deepEqual([missing.error, missing.output], [true, "nope does not exist"]);
    assert.equal(ws.ctx.state.seenFiles.size, 0, "listing is not reading");
  } finally {
    await ws.cleanup();
  }
});
