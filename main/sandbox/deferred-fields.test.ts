/**
 * Deferred context fields (lazy-fields.ts) come with the call as text and are parsed in the
 * sandbox when read; to plugin code they look exactly like fields parsed with the rest.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  COPIED_STRING_CHARS,
  copiedPieces,
  DEFERRED_SEPARATOR,
  type DeferredFields,
} from "./lazy-fields.ts";
import { forEachBackend, loadPlugin } from "./testing.ts";

const CODE = `
  let kept;
  export function read(ctx) { return { pending: ctx.todo.pending, first: ctx.tools[0], agent: ctx.agent }; }
  export function whole(ctx) { return JSON.parse(JSON.stringify(ctx)); }
  export function spread(ctx) { return { ...ctx }; }
  export function listed(ctx) {
    return Object.keys(ctx).sort().map((key) => [key, Object.getOwnPropertyDescriptor(ctx, key).enumerable, key in ctx]);
  }
  export function mutate(ctx) { ctx.todo.pending += 40; ctx.tools.push("Grep"); return [ctx.todo.pending, ctx.tools.length]; }
  export function assign(ctx) { ctx.stats = "replaced"; return [ctx.stats, Object.keys(ctx).includes("stats"), JSON.stringify(ctx).includes("replaced")]; }
  export function inherited(ctx) { const child = Object.create(ctx); return [child.stats.turns, Object.keys(ctx).length]; }
  export function readTwice(ctx) { return ctx.stats === ctx.stats && Object.getOwnPropertyDescriptor(ctx, "stats").value === ctx.stats; }
  export function removed(ctx) { delete ctx.todo; return ["todo" in ctx, ctx.todo]; }
  export async function later(ctx) { await new Promise((r) => setTimeout(r, 5)); return ctx.stats.turns; }
  export function keep(ctx) { kept = ctx; return null; }
  export function readKept() { return kept.stats.turns; }
  export function described(ctx) {
    return Object.keys(ctx).sort().map((key) => {
      const d = Object.getOwnPropertyDescriptor(ctx, key);
      return [key, "value" in d && d.get === undefined && d.writable && d.configurable];
    });
  }
  export function deleteRead(ctx) { const before = ctx.todo.pending; delete ctx.todo; return [before, "todo" in ctx, Object.keys(ctx).includes("todo")]; }
  export function order(ctx) { const before = Object.keys(ctx); ctx.stats.turns; ctx.agent; ctx.extra = 1; return [before, Object.keys(ctx)]; }
  export function childSet(ctx) { const child = Object.create(ctx); child.todo = 1; return [child.todo, ctx.todo.pending, Object.keys(ctx).includes("todo")]; }
  export function frozen(ctx) { Object.freeze(ctx); return [Object.isFrozen(ctx), ctx.stats.turns, Object.keys(ctx).length]; }
  export function length(ctx) { return [ctx.text.length, ctx.text.slice(-2), ctx.nested.words.length]; }
`;

const ctx = {
  agent: "default",
  iteration: 3,
  todo: { pending: 2, inProgress: 1, total: 5 },
  tools: ["Read", "Write"],
  stats: { turns: 7, tokens: { in: 10, out: 20 } },
};

/** `ctx` as the host sends it: scalars in the JSON, the object fields deferred. */
function payload(context: Record<string, unknown>): {
  json: string;
  deferred: DeferredFields | undefined;
} {
  const inline: Record<string, unknown> = {};
  const fields: [string, string][] = [];
  for (const [key, value] of Object.entries(context)) {
    if (typeof value === "object" && value !== null) fields.push([key, JSON.stringify(value)]);
    else inline[key] = value;
  }
  const deferred =
    fields.length === 0
      ? undefined
      : {
          names: JSON.stringify(fields.map(([name]) => name)),
          text: fields.map(([, json]) => DEFERRED_SEPARATOR + json).join(""),
        };
  return { json: JSON.stringify([inline]), deferred };
}

forEachBackend((backend) => {
  test("deferred fields read, serialise, spread and list like parsed ones", async () => {
    const m = await loadPlugin(backend, CODE);
    const call = (name: string, context: Record<string, unknown> = ctx) => {
      const { json, deferred } = payload(context);
      return m.callJson(name, json, undefined, deferred);
    };
    try {
      assert.deepEqual(await call("read"), { pending: 2, first: "Read", agent: "default" });
      // Nothing read first: every field still comes out whole.
      assert.deepEqual(await call("whole"), ctx);
      assert.deepEqual(await call("spread"), ctx);
      assert.deepEqual(
        await call("listed"),
        Object.keys(ctx)
          .sort()
          .map((key) => [key, true, true]),
      );
      assert.deepEqual(await call("mutate"), [42, 3]);
      assert.deepEqual(await call("assign"), ["replaced", true, true]);
      assert.deepEqual(await call("inherited"), [7, Object.keys(ctx).length]);
      assert.equal(await call("readTwice"), true);
      assert.deepEqual(await call("removed"), [false, null]);
      assert.deepEqual(await call("deleteRead"), [2, false, false]);
      assert.deepEqual(await call("childSet"), [1, 2, true]);
      // The same order before and after reads, whatever was read: the fields that came as text,
      // those parsed with the arguments, then what the plugin added.
      const keys = ["todo", "tools", "stats", "agent", "iteration"];
      assert.deepEqual(await call("order"), [keys, [...keys, "extra"]]);
      assert.deepEqual(await call("frozen"), [true, 7, Object.keys(ctx).length]);
      assert.equal(await call("later"), 7);
    } finally {
      m.dispose();
    }
  });

  test("a kept context keeps its own fields; its fields are plain values, nothing to borrow", async () => {
    const m = await loadPlugin(backend, CODE);
    const call = (name: string, context: Record<string, unknown>) => {
      const { json, deferred } = payload(context);
      return m.callJson(name, json, undefined, deferred);
    };
    try {
      await call("keep", ctx);
      const other = { ...ctx, tools: ["Other"], stats: { turns: 99, tokens: { in: 0, out: 0 } } };
      assert.equal(await call("readKept", other), 7);
      // Every field, read or not, describes as a plain writable value: no getter to take away
      // and call on another object.
      assert.deepEqual(
        await call("described", other),
        Object.keys(ctx)
          .sort()
          .map((key) => [key, true]),
      );
    } finally {
      m.dispose();
    }
  });

  test("long and non-Latin texts arrive whole, however they are cut", async () => {
    const m = await loadPlugin(backend, CODE);
    try {
      const text = "añ😀 ".repeat(1_500) + "ok";
      const context = { text, nested: { words: Array.from({ length: 400 }, (_, i) => `w${i}ü`) } };
      const { json, deferred } = payload(context);
      assert.ok(json.length > 3 * COPIED_STRING_CHARS);
      assert.ok(deferred!.text.length > 3 * COPIED_STRING_CHARS);
      assert.deepEqual(await m.callJson("length", json, undefined, deferred), [
        text.length,
        "ok",
        400,
      ]);
      const ascii = { text: "a".repeat(5_000) + "ok", nested: { words: [] } };
      const plain = payload(ascii);
      assert.deepEqual(await m.callJson("length", plain.json, undefined, plain.deferred), [
        5_002,
        "ok",
        0,
      ]);
    } finally {
      m.dispose();
    }
  });

  test("a field the plugin has read, parsed ahead in its later calls, is each call's own", async () => {
    const m = await loadPlugin(backend, CODE);
    const call = (name: string, context: Record<string, unknown> = ctx) => {
      const { json, deferred } = payload(context);
      return m.callJson(name, json, undefined, deferred);
    };
    try {
      await call("read");
      const next = { ...ctx, todo: { pending: 9, inProgress: 0, total: 9 }, tools: ["Bash"] };
      assert.deepEqual(await call("read", next), { pending: 9, first: "Bash", agent: "default" });
      assert.deepEqual(await call("whole", next), next);
      assert.deepEqual(await call("mutate", next), [49, 2]);
      assert.deepEqual(await call("removed", next), [false, null]);
      assert.deepEqual(await call("read", ctx), { pending: 2, first: "Read", agent: "default" });
    } finally {
      m.dispose();
    }
  });
  test("contexts of many shapes, and a shape seen again after the numbering started over", async () => {
    const m = await loadPlugin(
      backend,
      `export function pick(ctx) { return [ctx.pluginConfig ?? null, Object.keys(ctx).length, ctx["f" + ctx.at]]; }`,
    );
    // A context with fields f0…fN (N shapes in all, more than a sandbox keeps), then the first
    // ones again: each call reads its own fields whatever numbers its shape had before.
    const shaped = (n: number) => {
      const context: Record<string, unknown> = { at: n };
      for (let i = 0; i <= n; i++) context[`f${i}`] = { value: `${n}:${i}` };
      return payload(context);
    };
    try {
      for (const n of [...Array.from({ length: 70 }, (_, i) => i), 0, 1, 69, 2]) {
        const { json, deferred } = shaped(n);
        const config = n % 2 ? '[{"pluginConfig":{"k":1},' + json.slice(2) : json;
        assert.deepEqual(
          await m.callJson("pick", config, undefined, deferred),
          [n % 2 ? { k: 1 } : null, n + 2 + (n % 2), { value: `${n}:${n}` }],
          `shape ${n}`,
        );
      }
    } finally {
      m.dispose();
    }
  });

  test("a plugin that replaces the string methods still reads its own fields", async () => {
    const m = await loadPlugin(
      backend,
      `String.prototype.indexOf = () => 0;
       String.prototype.slice = () => "{}";
       JSON.parse = () => ({});
       export function read(ctx) { return [ctx.stats.turns, ctx.tools[1]]; }`,
    );
    try {
      for (let i = 0; i < 2; i++) {
        const { json, deferred } = payload(ctx);
        assert.deepEqual(await m.callJson("read", json, undefined, deferred), [7, "Write"]);
      }
    } finally {
      m.dispose();
    }
  });
});

test("texts are cut into pieces that isolated-vm copies rather than externalises", () => {
  for (const text of [
    "short",
    "x".repeat(2_500),
    "é".repeat(1_001),
    "😀".repeat(700) + "a".repeat(900),
  ]) {
    const pieces = copiedPieces(text);
    assert.equal(pieces.join(""), text);
    for (const piece of pieces) {
      const bytes = /[\u0100-\uffff]/.test(piece) ? piece.length * 2 : piece.length;
      assert.ok(bytes < 1024, `a piece of ${bytes} bytes`);
    }
  }
});
