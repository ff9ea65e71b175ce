/**
 * `tool_response` in Claude Code's shape per tool, from real tool runs in a temporary workspace:
 * Read's `file` record, Bash's stdout, Write's create/update, Edit's strings; a failure and the
 * tools Claude does not document keep `{error|output, success}`.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { executeToolCall } from "./executor.ts";
import { tempWorkspace } from "./test-support.ts";
import { claudeToolResponse } from "./claude-names.ts";
import type { Tool } from "./types.ts";
import { readTool } from "./builtin/read.ts";
import { bashTool } from "./builtin/bash.ts";
import { writeTool } from "./builtin/write.ts";
import { patchTool } from "./builtin/patch.ts";
import { globTool } from "./builtin/glob.ts";

test("each tool's response as Claude gives it to PostToolUse", async () => {
  const ws = await tempWorkspace();
  try {
    const respond = async (tool: Tool, args: Record<string, unknown>) => {
      const r = await executeToolCall(tool, args, ws.ctx);
      const outcome = r.error ? { result: "", error: r.output } : { result: r.output, error: "" };
      return claudeToolResponse(tool.name, args, outcome, ws.dir);
    };
    const file = `${ws.dir}/notes.txt`;
    assert.deepEqual(await respond(writeTool, { path: "notes.txt", content: "a\nb\nc\nd\n" }), {
      type: "create",
      filePath: file,
      content: "a\nb\nc\nd\n",
      success: true,
    });
    assert.deepEqual(await respond(readTool, { path: "notes.txt" }), {
      type: "text",
      file: { filePath: file, content: "a\nb\nc\nd", numLines: 4, startLine: 1, totalLines: 4 },
    });
    assert.deepEqual(await respond(readTool, { path: "notes.txt", offset: 2, limit: 2 }), {
      type: "text",
      file: { filePath: file, content: "b\nc", numLines: 2, startLine: 2, totalLines: 4 },
    });
    assert.deepEqual(
      await respond(patchTool, { path: "notes.txt", old_string: "b", new_string: "B" }),
      {
        filePath: file,
        oldString: "b",
        newString: "B",
        replaceAll: false,
        userModified: false,
        success: true,
      },
    );
    const updated = await respond(writeTool, { path: "notes.txt", content: "x\n" });
    assert.equal(updated.type, "update");
    assert.deepEqual(await respond(bashTool, { command: "echo hi; echo there" }), {
      stdout: "hi\nthere",
      stderr: "",
      interrupted: false,
      isImage: false,
    });
    const failed = await respond(bashTool, { command: "exit 3" });
    assert.equal(failed.success, false);
    assert.match(String(failed.error), /exit code 3/);
    // Claude does not document Glob's response: Islet's text stays as `output`.
    assert.deepEqual(await respond(globTool, { pattern: "*.txt" }), {
      output: "notes.txt",
      success: true,
    });
  } finally {
    await ws.cleanup();
  }
});
