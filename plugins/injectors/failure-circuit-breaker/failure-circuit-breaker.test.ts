/** failure-circuit-breaker through the real engine: three different failures stop tool use. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { startPluginHarness, type PluginHarness } from "../../../main/engine/testing.ts";

const plugin = {
  yaml: readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8"),
  code: readFileSync(new URL("./index.ts", import.meta.url), "utf8"),
};
const layout = { "failure-circuit-breaker": "injectors/failure-circuit-breaker" };
const read = (path: string) => ({ toolCalls: [{ name: "Read", arguments: { path } }] });

function offered(h: PluginHarness, i: number): string[] {
  const body = h.server.chatRequests[i].body as { tools?: { function: { name: string } }[] };
  return (body.tools ?? []).map((t) => t.function.name);
}

test("three different failures in a row: the model is told to stop and gets no more tools", async () => {
  const h = await startPluginHarness({
    plugins: { "failure-circuit-breaker": plugin },
    layout,
    script: [
      read("a.txt"),
      { toolCalls: [{ name: "Ls", arguments: { path: "nowhere" } }] },
      read("b.txt"),
      { text: ["I could not find the files."] },
      { text: ["Back with tools."] },
    ],
  });
  try {
    const r = await h.conversation.submit("summarise a.txt and b.txt");
    assert.ok(r.kind === "turn" && r.outcome.status === "done");
    assert.equal(h.server.chatRequests.length, 4);
    assert.equal(h.of("tool_result").filter((t) => t.error).length, 3);
    const last = h.sent(3).at(-1)!;
    assert.equal(last.role, "user");
    assert.match(
      last.content,
      /^\[failure-circuit-breaker\] 3 different tool calls failed in a row:\n- Read: .*a\.txt.*\n- Ls: .*nowhere.*\n- Read: .*b\.txt.*\nStop calling tools: they are disabled for the rest of this request\./,
    );
    assert.ok(offered(h, 2).includes("Read"), "tools until the breaker trips");
    assert.deepEqual(offered(h, 3), [], "no tools once it tripped");
    // A new user turn starts with the tools back.
    await h.conversation.submit("try again later");
    assert.ok(offered(h, 4).includes("Read"));
  } finally {
    await h.close();
  }
});

test("repeats of one failure count once, and a success resets the count", async () => {
  const h = await startPluginHarness({
    plugins: { "failure-circuit-breaker": plugin },
    layout,
    script: [
      read("a.txt"),
      read("a.txt"),
      read("b.txt"),
      { toolCalls: [{ name: "Ls", arguments: {} }] },
      read("c.txt"),
      read("d.txt"),
      { text: ["done"] },
    ],
  });
  try {
    await h.conversation.submit("go");
    assert.equal(h.server.chatRequests.length, 7);
    assert.equal(h.of("injected").length, 0);
    assert.ok(offered(h, 6).includes("Read"));
  } finally {
    await h.close();
  }
});

test("max_failures from the features config", async () => {
  const h = await startPluginHarness({
    plugins: { "failure-circuit-breaker": plugin },
    layout,
    features:
      "plugins:\n  config:\n    local:\n      failure-circuit-breaker: { max_failures: 2 }\n",
    script: [
      {
        toolCalls: [
          { name: "Read", arguments: { path: "x.txt" } },
          { name: "Read", arguments: { path: "y.txt" } },
        ],
      },
      { text: ["Both files are missing."] },
    ],
  });
  try {
    await h.conversation.submit("read x and y");
    assert.match(
      h.sent(1).at(-1)!.content,
      /^\[failure-circuit-breaker\] 2 different tool calls failed in a row:/,
    );
    assert.deepEqual(offered(h, 1), []);
  } finally {
    await h.close();
  }
});
