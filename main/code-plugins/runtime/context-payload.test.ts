/**
 * A hook context as plugins get it: serialised once, big fields kept on the host until read, its
 * objects parsed only when read, and yet, to the plugin's code, the same object the engine built
 * (plus its pluginConfig).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { forEachBackend, loadPlugin } from "../../sandbox/testing.ts";
import { contextPayload, LAZY_FIELD_CHARS } from "./handlers.ts";

const CODE = `
  export function content(ctx) { return ctx.content.length; }
  export function whole(ctx) { return JSON.parse(JSON.stringify(ctx)); }
  export function inherited(ctx) { return Object.create(ctx).content.length; }
  export function keysOf(ctx) { return Object.keys(ctx); }
  export function todo(ctx) { return ctx.todo.pending + ctx.stats.tools.calls; }
`;

const ctx = {
  agent: "default",
  content: "word ".repeat(LAZY_FIELD_CHARS),
  response: { empty: false, contentEmpty: false },
  todo: { pending: 2, inProgress: 0, total: 5 },
  stats: { startTime: "2026-11-27T20:33:49.910Z", turns: 7, tools: { calls: 3, errors: 0 } },
  patchCounts: {},
  turns: [{ role: "user", content: "hi" }],
};

test("fields over the size limit, and the named big ones, travel lazily; the rest deferred", () => {
  const payload = contextPayload(ctx, { every: 3 });
  assert.deepEqual((JSON.parse(payload.lazy!.names) as string[]).sort(), ["content", "turns"]);
  assert.equal(payload.lazy!.text("turns"), JSON.stringify(ctx.turns));
  assert.equal(payload.lazy!.text("constructor"), undefined);
  const deferred = ["agent", "response", "todo", "stats", "patchCounts"] as const;
  assert.deepEqual(JSON.parse(payload.deferred!.names), deferred);
  assert.deepEqual(
    payload
      .deferred!.text.split("\n")
      .slice(1)
      .map((text) => JSON.parse(text) as unknown),
    deferred.map((key) => ctx[key]),
  );
  assert.deepEqual(JSON.parse(payload.json), [{ pluginConfig: { every: 3 } }]);
  assert.equal(contextPayload(ctx, {}).lazy, payload.lazy, "serialised once per context");
});

forEachBackend((backend) => {
  test("a plugin sees lazy and deferred fields as if they had been there all along", async () => {
    const m = await loadPlugin(backend, CODE);
    const call = (name: string) => {
      const { json, lazy, deferred } = contextPayload(ctx, { every: 3 });
      return m.callJson(name, json, lazy, deferred);
    };
    try {
      assert.equal(await call("content"), ctx.content.length);
      assert.deepEqual(await call("whole"), { ...ctx, pluginConfig: { every: 3 } });
      assert.equal(await call("inherited"), ctx.content.length);
      assert.deepEqual(((await call("keysOf")) as string[]).sort(), [
        "agent",
        "content",
        "patchCounts",
        "pluginConfig",
        "response",
        "stats",
        "todo",
        "turns",
      ]);
      assert.equal(await call("todo"), 5);
    } finally {
      m.dispose();
    }
  });
});

test("the conversation's turns and the system prompt are written out only when a plugin reads them", () => {
  let written = 0;
  const turns = [{ role: "user", content: "hi" }];
  const counted = {
    ...ctx,
    turns: { toJSON: () => (written++, turns) },
    systemPrompt: "Be brief.",
  };
  const payload = contextPayload(counted, {});
  assert.equal(written, 0, "not written for a call that may never read them");
  const lazy = payload.lazy!;
  assert.deepEqual(JSON.parse(lazy.text("turns")!), turns);
  assert.equal(lazy.text("turns"), lazy.text("turns"));
  assert.equal(written, 1, "written once, however often read");
  assert.equal(JSON.parse(lazy.text("systemPrompt")!), "Be brief.");
});
