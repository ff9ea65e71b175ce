/** max-steps through the real engine: past the limit the request offers no tools and says why. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startPluginHarness, type PluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "max-steps": "injectors/max-steps" };
const WRAP_UP =
  /^\[max-steps\] You have used all (\d+) tool steps for this request, so tools are disabled now\./;

function offered(h: PluginHarness, i: number): string[] {
  const body = h.server.chatRequests[i].body as { tools?: { function: { name: string } }[] };
  return (body.tools ?? []).map((t) => t.function.name);
}

test("with max 2, the third request offers no tools and carries the wrap-up message", async () => {
  const h = await startPluginHarness({
    plugins: { "max-steps": plugin },
    layout,
    features: "plugins:\n  config:\n    local:\n      max-steps: { max: 2 }\n",
    script: [
      { toolCalls: [{ name: "Ls", arguments: {} }] },
      { toolCalls: [{ name: "Ls", arguments: {} }] },
      { text: ["I listed the folder twice; nothing else to do."] },
    ],
  });
  try {
    const r = await h.conversation.submit("explore");
    assert.ok(r.kind === "turn" && r.outcome.status === "done");
    assert.equal(h.server.chatRequests.length, 3);
    assert.ok(offered(h, 0).includes("Ls"));
    assert.ok(offered(h, 1).includes("Ls"));
    assert.deepEqual(offered(h, 2), [], "no tools on the third request");
    const last = h.sent(2).at(-1)!;
    assert.equal(last.role, "user");
    assert.match(last.content, WRAP_UP);
    assert.equal(WRAP_UP.exec(last.content)?.[1], "2");
    assert.ok(!JSON.stringify(h.sent(1)).includes("[max-steps]"));
    assert.deepEqual(
      h.of("injected").map((e) => e.source),
      ["max-steps"],
    );
  } finally {
    await h.close();
  }
});

test("the limit counts per turn: a new user turn gets its tools back", async () => {
  const h = await startPluginHarness({
    plugins: { "max-steps": plugin },
    layout,
    features: "plugins:\n  config:\n    local:\n      max-steps: { max: 1 }\n",
    script: [
      { toolCalls: [{ name: "Ls", arguments: {} }] },
      { text: ["wrapped up"] },
      { text: ["hello again"] },
    ],
  });
  try {
    await h.conversation.submit("one");
    await h.conversation.submit("two");
    assert.deepEqual(offered(h, 1), []);
    assert.ok(offered(h, 2).includes("Ls"), "iteration 1 of the next turn has tools again");
    assert.ok(!JSON.stringify(h.sent(2)).includes("[max-steps]"), "the wrap-up was ejected");
  } finally {
    await h.close();
  }
});

test("by default the agent's step limit minus one: the engine's last step is the wrap-up", async () => {
  const h = await startPluginHarness({
    plugins: { "max-steps": plugin },
    layout,
    // The default agent allows 50 steps: 49 with tools, then the tool-free wrap-up.
    script: [
      ...Array.from({ length: 49 }, () => ({ toolCalls: [{ name: "Ls", arguments: {} }] })),
      { text: ["summary"] },
    ],
  });
  try {
    const r = await h.conversation.submit("go");
    assert.ok(r.kind === "turn" && r.outcome.status === "done", JSON.stringify(r));
    assert.equal(h.server.chatRequests.length, 50);
    assert.ok(offered(h, 48).includes("Ls"));
    assert.deepEqual(offered(h, 49), []);
    assert.equal(WRAP_UP.exec(h.sent(49).at(-1)!.content)?.[1], "49");
  } finally {
    await h.close();
  }
});
