/**
 * A hook context as plugins get it: serialised once, big fields kept on the host until read, and
 * yet, to the plugin's code, the same object the engine built (plus its pluginConfig).
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
`;

const ctx = {
  agent: "default",
  content: "word ".repeat(LAZY_FIELD_CHARS),
  response: { empty: false, contentEmpty: false },
  turns: [{ role: "user", content: "hi" }],
};

test("fields over the size limit, and the named big ones, travel lazily; the rest inline", () => {
  const payload = contextPayload(ctx, { every: 3 });
  assert.deepEqual(Object.keys(payload.lazy).sort(), ["content", "turns"]);
  assert.deepEqual(JSON.parse(payload.json), [
    { agent: "default", response: ctx.response, pluginConfig: { every: 3 } },
  ]);
  assert.equal(contextPayload(ctx, {}).lazy, payload.lazy, "serialised once per context");
});

forEachBackend((backend) => {
  test("a plugin sees a lazy big field as if it had been there all along", async () => {
    const m = await loadPlugin(backend, CODE);
    const call = (name: string) => {
      const { json, lazy } = contextPayload(ctx, { every: 3 });
      return m.callJson(name, json, lazy);
    };
    try {
      assert.equal(await call("content"), ctx.content.length);
      assert.deepEqual(await call("whole"), { ...ctx, pluginConfig: { every: 3 } });
      assert.equal(await call("inherited"), ctx.content.length);
      assert.deepEqual(((await call("keysOf")) as string[]).sort(), [
        "agent",
        "content",
        "pluginConfig",
        "response",
        "turns",
      ]);
    } finally {
      m.dispose();
    }
  });
});
