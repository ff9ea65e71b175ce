/** loop-detection through the real engine: identical calls in a row earn a warning. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startPluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "loop-detection": "injectors/loop-detection" };
const ls = (path = ".") => ({ toolCalls: [{ name: "Ls", arguments: { path } }] });
const WARNING =
  '[loop-detection] You have called Ls 3 times in a row with the same arguments ({"path":"."}). Repeating it will not give a different result. Stop and change approach: use what the earlier calls returned, try different arguments or another tool, or tell the user what is blocking you.';

test("three identical Ls calls: the warning reaches the model with the next request", async () => {
  const h = await startPluginHarness({
    plugins: { "loop-detection": plugin },
    layout,
    script: [ls(), ls(), ls(), { text: ["Sorry, I will stop listing."] }],
  });
  try {
    await h.conversation.submit("what is here?");
    assert.equal(h.server.chatRequests.length, 4);
    for (let i = 0; i < 3; i++)
      assert.ok(!JSON.stringify(h.sent(i)).includes("[loop-detection]"), `request ${i}`);
    const last = h.sent(3).at(-1)!;
    assert.equal(last.role, "user");
    assert.equal(last.content, WARNING);
    // The warning follows the third call's result.
    assert.equal(h.sent(3).at(-2)?.role, "tool");
    const injected = h.of("injected");
    assert.deepEqual(
      injected.map((e) => [e.source, e.role]),
      [["loop-detection", "user"]],
    );
  } finally {
    await h.close();
  }
});

test("different arguments break the run; identical calls within one step count too (threshold: 2)", async () => {
  const h = await startPluginHarness({
    plugins: { "loop-detection": plugin },
    layout,
    features: "plugins:\n  config:\n    local:\n      loop-detection: { threshold: 2 }\n",
    script: [
      ls("."),
      ls("sub"),
      ls("."),
      {
        toolCalls: [
          { name: "Glob", arguments: { pattern: "*" } },
          { name: "Glob", arguments: { pattern: "*" } },
        ],
      },
      { text: ["done"] },
    ],
  });
  try {
    await h.conversation.submit("look");
    for (let i = 0; i < 4; i++)
      assert.ok(!JSON.stringify(h.sent(i)).includes("[loop-detection]"), `request ${i}`);
    assert.match(
      h.sent(4).at(-1)!.content,
      /^\[loop-detection\] You have called Glob 2 times in a row with the same arguments \(\{"pattern":"\*"\}\)/,
    );
    assert.equal(h.of("injected").length, 1);
  } finally {
    await h.close();
  }
});
