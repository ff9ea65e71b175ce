/** once-hooks fire once per session, and a resumed session remembers that they fired. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createEngine } from "./bootstrap.ts";
import { startPluginHarness } from "./testing.ts";

test("a once-hook that fired does not fire again after the session is resumed", async () => {
  const h = await startPluginHarness({
    plugins: {
      hello: {
        yaml: "once: true\n",
        code: `export function beforeChat() { return { notice: "hello once" }; }`,
      },
    },
    script: [{ text: ["a"] }, { text: ["b"] }, { text: ["c"] }],
  });
  try {
    await h.conversation.submit("one");
    await h.conversation.submit("two");
    assert.deepEqual(
      h.of("notice").map((n) => n.text),
      ["hello once"],
    );
    const id = h.conversation.id;
    await h.conversation.close();

    // A new engine (as after an app restart) resumes the same session.
    const notices: string[] = [];
    const engine = await createEngine({
      home: h.home,
      workdir: h.workdir,
      env: {},
      flags: { provider: "openai-compatible", baseUrl: h.server.url, model: "m" },
      plugins: {},
      warn: () => {},
    });
    try {
      const resumed = await engine.open({
        sessionId: id,
        emit: (e) => e.type === "notice" && notices.push(e.text),
      });
      await resumed.submit("three");
      assert.deepEqual(notices, []);
      await resumed.close();
    } finally {
      await engine.close();
    }
  } finally {
    await h.close();
  }
});
