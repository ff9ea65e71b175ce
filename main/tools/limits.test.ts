import assert from "node:assert/strict";
import { test } from "node:test";
import { clampTimeout, HeadTailBuffer, MAX_TIMEOUT_MS, truncateOutput } from "./limits.ts";

test("short output is unchanged", () => {
  assert.equal(truncateOutput("hello", 10), "hello");
});

test("long output keeps head and tail with a marker", () => {
  const text = "H".repeat(50) + "M".repeat(1000) + "T".repeat(50);
  const out = truncateOutput(text, 100);
  assert.ok(out.startsWith("H".repeat(50)));
  assert.ok(out.endsWith("T".repeat(50)));
  assert.match(out, /\n\[… 1000 chars truncated …\]\n/);
  assert.ok(!out.includes("M"));
});

test("timeouts are clamped", () => {
  assert.equal(clampTimeout(undefined, 5000), 5000);
  assert.equal(clampTimeout(-1, 5000), 5000);
  assert.equal(clampTimeout(Number.NaN, 5000), 5000);
  assert.equal(clampTimeout(250), 250);
  assert.equal(clampTimeout(10 * MAX_TIMEOUT_MS), MAX_TIMEOUT_MS);
});

test("HeadTailBuffer keeps the ends of a stream", () => {
  const small = new HeadTailBuffer(10);
  small.push("abc");
  small.push("def");
  assert.equal(small.toString(), "abcdef");

  const big = new HeadTailBuffer(5);
  for (const chunk of ["01234", "5678", "9abcdefghij", "klmno"]) big.push(chunk);
  assert.equal(big.toString(), "01234\n[… 15 chars truncated …]\nklmno");
});
