/** Lazy context fields look exactly like eager ones to plugin code, on every backend. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ContextShapes, LazyFields, lazyTexts } from "./lazy-fields.ts";
import { forEachBackend, loadPlugin } from "./testing.ts";

const CODE = `
  let kept;
  export function read(ctx) { return { turns: ctx.turns.length, first: ctx.turns[0].content, agent: ctx.agent }; }
  export function untouched(ctx) { return ctx.agent; }
  export function whole(ctx) { return JSON.parse(JSON.stringify(ctx)); }
  export function keysOf(ctx) { return Object.keys(ctx).sort(); }
  export function spread(ctx) { const { agent, ...rest } = ctx; return rest.systemPrompt; }
  export async function later(ctx) { await new Promise((r) => setTimeout(r, 5)); return ctx.toolHistory.length; }
  export function keep(ctx) { kept = ctx; return null; }
  export function readKept() { return kept.systemPrompt; }
  export function overwrite(ctx) { ctx.turns = []; return ctx.turns.length; }
`;

const ctx = { agent: "default", iteration: 2 };
const texts = {
  turns: JSON.stringify([
    { role: "user", content: "hello" },
    { role: "assistant", content: "hi" },
  ]),
  toolHistory: JSON.stringify([{ name: "Read" }]),
  systemPrompt: JSON.stringify("You are Islet."),
};
const lazy = lazyTexts(texts);
const json = JSON.stringify([ctx]);

forEachBackend((backend) => {
  test("reading, serialising, spreading and listing lazy fields", async () => {
    const m = await loadPlugin(backend, CODE);
    try {
      assert.deepEqual(await m.callJson("read", json, lazy), {
        turns: 2,
        first: "hello",
        agent: "default",
      });
      assert.equal(await m.callJson("untouched", json, lazy), "default");
      assert.deepEqual(await m.callJson("whole", json, lazy), {
        ...ctx,
        turns: JSON.parse(texts.turns),
        toolHistory: JSON.parse(texts.toolHistory),
        systemPrompt: "You are Islet.",
      });
      assert.deepEqual(await m.callJson("keysOf", json, lazy), [
        "agent",
        "iteration",
        "systemPrompt",
        "toolHistory",
        "turns",
      ]);
      assert.equal(await m.callJson("spread", json, lazy), "You are Islet.");
      assert.equal(await m.callJson("later", json, lazy), 1);
      assert.equal(await m.callJson("overwrite", json, lazy), 0);
    } finally {
      m.dispose();
    }
  });

  test("a context kept from an earlier call still reads its fields", async () => {
    const m = await loadPlugin(backend, CODE);
    try {
      await m.callJson("keep", json, lazy);
      await m.callJson(
        "untouched",
        json,
        lazyTexts({ ...texts, systemPrompt: JSON.stringify("other") }),
      );
      assert.equal(await m.callJson("readKept", "[]"), "You are Islet.");
    } finally {
      m.dispose();
    }
  });
});

forEachBackend((backend) => {
  test("listing a context's keys fetches none of its host-kept fields", async () => {
    const m = await loadPlugin(
      backend,
      `export function keys(ctx) { const out = []; for (const key in ctx) out.push(key); return [Object.keys(ctx).length, out.length]; }
       export function described(ctx) { const d = Object.getOwnPropertyDescriptor(ctx, "systemPrompt"); return [typeof d.get, d.enumerable, d.get.call({}), ctx.systemPrompt]; }`,
    );
    const fetched: string[] = [];
    const counting = {
      names: lazy!.names,
      text: (name: string) => (fetched.push(name), lazy!.text(name)),
    };
    // QuickJS's worker cannot call back: its calls take every lazy text along.
    const kept = backend.name === "isolated-vm";
    try {
      assert.deepEqual(await m.callJson("keys", json, counting), [5, 5]);
      if (kept) assert.deepEqual(fetched, []);
      assert.deepEqual(await m.callJson("described", json, counting), [
        "function",
        true,
        "You are Islet.",
        "You are Islet.",
      ]);
      if (kept) assert.deepEqual(fetched, ["systemPrompt"]);
    } finally {
      m.dispose();
    }
  });
});

test("the host gives a call's own lazy fields only, never what its record inherits", () => {
  const fields = new LazyFields();
  fields.register(7, lazy);
  assert.equal(fields.get(7, "systemPrompt"), texts.systemPrompt);
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"])
    assert.equal(fields.get(7, name), undefined, name);
  assert.equal(fields.get(8, "systemPrompt"), undefined, "another call's");
});

test("a context's shape goes with its names until the sandbox has them, and again after a reset", () => {
  const shapes = new ContextShapes();
  assert.equal(shapes.number("", ""), 0, "no lazy or deferred fields: no shape");
  assert.equal(shapes.names, "");
  const first = shapes.number('["turns"]', '["todo","stats"]');
  assert.equal(shapes.names, '["turns"]\n["todo","stats"]');
  assert.equal(shapes.number('["turns"]', '["todo","stats"]'), first);
  assert.equal(shapes.names, "", "known: the number alone");
  const second = shapes.number("", '["todo"]');
  assert.notEqual(second, first);
  assert.equal(shapes.names, '\n["todo"]');
  // An entry that failed may have stopped before taking the names in.
  shapes.reset();
  shapes.number('["turns"]', '["todo","stats"]');
  assert.equal(shapes.names, '["turns"]\n["todo","stats"]');
});
