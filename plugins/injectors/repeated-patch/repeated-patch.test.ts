/** repeated-patch through the real engine: the fifth change to one file earns a warning. */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "repeated-patch": "injectors/repeated-patch" };
const patch = (file: string, from: string, to: string) => ({
  name: "Patch",
  arguments: { path: file, old_string: from, new_string: to },
});
const WARNING =
  "[repeated-patch] You have changed notes.txt 5 times in this session. Many small edits to one file usually mean guessing: read the whole file again, work out the complete change, and make it in one edit (or rewrite the file with Write).";

test("the fifth change to one file (Write + 4 Patches) warns the model; other files do not count", async () => {
  const h = await startPluginHarness({
    plugins: { "repeated-patch": plugin },
    layout,
    script: [
      {
        toolCalls: [
          { name: "Write", arguments: { path: "notes.txt", content: "v0" } },
          { name: "Write", arguments: { path: "other.txt", content: "x" } },
          patch("notes.txt", "v0", "v1"),
          patch("notes.txt", "v1", "v2"),
        ],
      },
      { toolCalls: [patch("notes.txt", "v2", "v3")] },
      { toolCalls: [patch("notes.txt", "v3", "v4"), patch("other.txt", "x", "y")] },
      { text: ["Done editing."] },
    ],
  });
  try {
    await h.conversation.submit("edit the notes");
    assert.ok(
      h.of("tool_result").every((r) => !r.error),
      JSON.stringify(h.of("tool_result")),
    );
    assert.equal(await readFile(path.join(h.workdir, "notes.txt"), "utf8"), "v4");
    for (let i = 0; i < 3; i++)
      assert.ok(!JSON.stringify(h.sent(i)).includes("[repeated-patch]"), `request ${i}`);
    const warnings = h.sent(3).filter((m) => m.content === WARNING);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].role, "user");
    assert.deepEqual(
      h.of("injected").map((e) => e.source),
      ["repeated-patch"],
    );
  } finally {
    await h.close();
  }
});

test("threshold from the features config; failed patches do not count", async () => {
  const h = await startPluginHarness({
    plugins: { "repeated-patch": plugin },
    layout,
    features: "plugins:\n  config:\n    local:\n      repeated-patch: { threshold: 2 }\n",
    script: [
      {
        toolCalls: [
          { name: "Write", arguments: { path: "a.txt", content: "one" } },
          patch("a.txt", "missing", "x"),
        ],
      },
      { toolCalls: [patch("a.txt", "one", "two")] },
      { text: ["ok"] },
    ],
  });
  try {
    await h.conversation.submit("go");
    assert.ok(
      !JSON.stringify(h.sent(1)).includes("[repeated-patch]"),
      "a failed patch is no change",
    );
    assert.match(h.sent(2).at(-1)!.content, /^\[repeated-patch\] You have changed a\.txt 2 times/);
  } finally {
    await h.close();
  }
});
