import assert from "node:assert/strict";
import { test } from "node:test";
import {
  escapeInvisible,
  hasInvisible,
  invisibleKey,
  stripInvisible,
  stripInvisibleDeep,
} from "./invisible-text.ts";

test("tag characters, zero-width, bidi controls, variation selectors and controls are stripped", () => {
  const hidden = [
    "\u{E0041}\u{E007F}", // tags
    "\u200B\u200C\u200D\u2060\uFEFF", // zero-width and joiners
    "\u202A\u202E\u2066\u2069\u200E\u200F\u061C", // bidi
    "\uFE0F\u{E0100}", // variation selectors
    "\u0000\u001B\u007F\u0085\u00AD", // controls, soft hyphen
  ].join("");
  assert.equal(stripInvisible(`a${hidden}b`), "ab");
  assert.equal(hasInvisible(hidden), true);
  for (const c of hidden) assert.equal(hasInvisible(c), true, escapeInvisible(c));
});

test("visible text is left alone: accents, CJK, emoji, tabs and newlines", () => {
  const text = "Résumé 日本語 👍 ok\ttab\nnext\r\n";
  assert.equal(stripInvisible(text), text);
  assert.equal(hasInvisible(text), false);
});

test("a schema's strings are stripped, its keys kept and reported", () => {
  const schema = { properties: { path: { description: "wh\u200Bere", enum: ["a\u{E0041}"] } } };
  assert.deepEqual(stripInvisibleDeep(schema), {
    properties: { path: { description: "where", enum: ["a"] } },
  });
  assert.equal(invisibleKey(schema), undefined);
  assert.equal(invisibleKey({ properties: { ["p\u200Bx"]: {} } }), "p\u200Bx");
  assert.equal(escapeInvisible("p\u200Bx\u{E0041}"), "p\\u{200B}x\\u{E0041}");
});
