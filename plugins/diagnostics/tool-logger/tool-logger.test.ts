/** tool-logger through the real engine: every call and result lands in the log file. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "tool-logger": "diagnostics/tool-logger" };
const LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (\S{1,8}) (.*)$/;

test("each call and each result (ok or error) is appended to tool-calls.log in its data folder", async () => {
  const h = await startPluginHarness({
    plugins: { "tool-logger": plugin },
    layout,
    script: [
      { toolCalls: [{ name: "Read", arguments: { path: "hello.txt" } }] },
      { toolCalls: [{ name: "Read", arguments: { path: "missing.txt" } }] },
      { text: ["done"] },
    ],
  });
  try {
    await writeFile(path.join(h.workdir, "hello.txt"), "line one\nline two\n");
    await h.conversation.submit("read both");
    assert.equal(h.of("notice").length, 0, JSON.stringify(h.of("notice")));
    const log = await readFile(
      path.join(h.home, "plugin-data", "tool-logger", "tool-calls.log"),
      "utf8",
    );
    const lines = log.trimEnd().split("\n");
    assert.equal(lines.length, 4, log);
    const parsed = lines.map((l) => LINE.exec(l));
    assert.ok(
      parsed.every((m) => m !== null),
      log,
    );
    assert.ok(parsed.every((m) => m![2] === h.conversation.id.slice(0, 8)));
    const events = parsed.map((m) => m![3]);
    assert.equal(events[0], 'call Read {"path":"hello.txt"}');
    assert.match(events[1], /^ok Read \d+ms: .*line one\\n.*line two/);
    assert.equal(events[2], 'call Read {"path":"missing.txt"}');
    assert.match(events[3], /^error Read \d+ms: .*missing\.txt/);
    // Logging is a side effect only: the model sees the tool results untouched.
    assert.equal(h.of("injected").length, 0);
    assert.equal(h.sent(1).at(-1)?.role, "tool");
  } finally {
    await h.close();
  }
});

test("the path and the result cut come from the config", async () => {
  const h = await startPluginHarness({
    plugins: { "tool-logger": plugin },
    layout,
    features:
      "plugins:\n  config:\n    local:\n      tool-logger: { path: audit/tools.log, max_result_chars: 5 }\n",
    script: [
      { toolCalls: [{ name: "Write", arguments: { path: "a.txt", content: "abc" } }] },
      { text: ["ok"] },
    ],
  });
  try {
    await h.conversation.submit("write it");
    const log = await readFile(
      path.join(h.home, "plugin-data", "tool-logger", "audit/tools.log"),
      "utf8",
    );
    const events = log
      .trimEnd()
      .split("\n")
      .map((l) => LINE.exec(l)![3]);
    assert.equal(events[0], 'call Write {"path":"a.txt","content":"abc"}');
    assert.match(events[1], /^ok Write \d+ms: .{5}… \[\d+ chars\]$/);
  } finally {
    await h.close();
  }
});
