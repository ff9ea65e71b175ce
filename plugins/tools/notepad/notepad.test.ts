/** notepad through the real engine: offered, reads and writes, read-before-write enforced. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { notepad: "tools/notepad" };
const notepad = (args: Record<string, unknown>) => ({
  toolCalls: [{ name: "Notepad", arguments: args }],
});

test("Notepad is offered with its schema and enforces read-before-write like Write", async () => {
  const h = await startPluginHarness({
    plugins: { notepad: plugin },
    layout,
    script: [
      notepad({ action: "write", path: "notes/scratch.md", content: "héllo" }),
      notepad({ action: "write", path: "notes/scratch.md", content: "overwritten" }),
      notepad({ action: "read", path: "notes/scratch.md" }),
      notepad({ action: "write", path: "notes/scratch.md", content: "second draft" }),
      { text: ["noted"] },
    ],
  });
  try {
    await h.conversation.submit("take notes");
    const body = h.server.chatRequests[0].body as {
      tools: { function: { name: string; description: string; parameters: unknown } }[];
    };
    const spec = body.tools.find((t) => t.function.name === "Notepad");
    assert.ok(spec, "offered to the model");
    assert.equal(spec.function.description, "Read or write a scratch file.");
    assert.deepEqual(spec.function.parameters, {
      type: "object",
      properties: {
        action: { type: "string", description: "read or write", enum: ["read", "write"] },
        path: { type: "string", description: "File path" },
        content: { type: "string", description: "Content to write (required for write action)" },
      },
      required: ["action", "path"],
      additionalProperties: false,
    });

    const results = h.of("tool_result");
    assert.equal(results.length, 4);
    // A new file needs no read first.
    assert.deepEqual(
      [results[0].error, results[0].output],
      [false, "wrote 6 bytes to notes/scratch.md"],
    );
    // An existing file the model has not read: guarded, not written.
    assert.equal(results[1].error, true);
    assert.match(results[1].output, /notes\/scratch\.md exists but has not been read/);
    // read returns the content and records it as seen...
    assert.deepEqual([results[2].error, results[2].output], [false, "héllo"]);
    // ...so the next write goes through.
    assert.deepEqual(
      [results[3].error, results[3].output],
      [false, "wrote 12 bytes to notes/scratch.md"],
    );
    assert.equal(await readFile(path.join(h.workdir, "notes/scratch.md"), "utf8"), "second draft");
    // The model saw each result.
    assert.equal(h.sent(3).at(-1)?.content, "héllo");
  } finally {
    await h.close();
  }
});

test("write without content, a missing file, a path outside the workspace or outside notes/ are tool errors", async () => {
  const h = await startPluginHarness({
    plugins: { notepad: plugin },
    layout,
    script: [
      notepad({ action: "write", path: "a.txt" }),
      notepad({ action: "read", path: "nope.txt" }),
      notepad({ action: "read", path: "/etc/hostname" }),
      notepad({ action: "erase", path: "a.txt" }),
      notepad({ action: "write", path: "src/app.ts", content: "x" }),
      { text: ["ok"] },
    ],
  });
  try {
    await h.conversation.submit("try things");
    const results = h.of("tool_result");
    assert.ok(
      results.every((r) => r.error),
      JSON.stringify(results),
    );
    assert.match(results[0].output, /content is required for write action/);
    assert.match(results[1].output, /no such file or directory: nope\.txt/);
    assert.match(results[2].output, /cannot read \/etc\/hostname: it is outside the workspace/);
    assert.match(results[3].output, /"action" must be equal to one of the allowed values/);
    assert.match(results[4].output, /cannot write src\/app\.ts: the workspace is read-only/);
  } finally {
    await h.close();
  }
});
