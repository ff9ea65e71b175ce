import assert from "node:assert/strict";
import { test } from "node:test";
import { LayeredRegistry } from "./layered.ts";

test("the top of a stack serves: higher priority first, then the latest registration", () => {
  const r = new LayeredRegistry<string>();
  const low = r.add("x", "low", 0);
  const high = r.add("x", "high", 1);
  const lowLater = r.add("x", "low later", 0);
  assert.equal(r.get("x"), "high");
  assert.deepEqual(r.contributions("x"), ["low", "low later", "high"]);
  assert.equal(lowLater.serving(), "high");
  high.dispose();
  assert.equal(r.get("x"), "low later");
  lowLater.dispose();
  assert.equal(r.get("x"), "low");
  low.dispose();
  assert.equal(r.has("x"), false);
  assert.equal(low.serving(), undefined);
});

test("disposing is idempotent and removes exactly one contribution, even of an equal value", () => {
  const r = new LayeredRegistry<string>();
  const a = r.add("x", "same");
  r.add("x", "same");
  a.dispose();
  a.dispose();
  assert.deepEqual(r.contributions("x"), ["same"]);
});

test("a name keeps its place while any contribution holds it; a new name goes last", () => {
  const r = new LayeredRegistry<string>();
  const a = r.add("a", "a1");
  r.add("b", "b1");
  const a2 = r.add("a", "a2");
  a.dispose();
  assert.deepEqual(r.names(), ["a", "b"]);
  assert.deepEqual(r.values(), ["a2", "b1"]);
  a2.dispose();
  r.add("a", "a3");
  assert.deepEqual(r.names(), ["b", "a"]);
});
