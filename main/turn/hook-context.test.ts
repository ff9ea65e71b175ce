import assert from "node:assert/strict";
import { test } from "node:test";
import { cutsNotice, cutText, fitHookContext, HOOK_CONTEXT_SHARE } from "./hook-context.ts";
import type { Injection } from "./hooks/types.ts";

const fmt = (n: number) => n.toLocaleString("en-US");

const lines = (n: number, width = 59) =>
  Array.from({ length: n }, (_, i) => `${String(i).padStart(4, "0")} ${"x".repeat(width - 5)}`)
    .join("\n")
    .concat("\n");

const injection = (source: string, content: string): Injection => ({
  source,
  role: "user",
  content,
  eject: false,
  beforePrompt: true,
});

test("what fits the share of the window is left whole", () => {
  const arrived = [injection("a:SessionStart", lines(20)), injection("b:SessionStart", lines(10))];
  // 1,800 characters at most against 8,192 tokens × 25% × 4.
  const { injections, cuts } = fitHookContext(arrived, 8192);
  assert.deepEqual(injections, arrived);
  assert.deepEqual(cuts, []);
  // An unknown window holds nothing back.
  assert.deepEqual(fitHookContext([injection("a", lines(2000))], 0).cuts, []);
});

test("over the share, each text keeps an equal part, a short one all of itself, cut at a line", () => {
  const arrived = [
    injection("alpha:SessionStart", lines(50)),
    injection("beta:SessionStart", lines(55)),
    injection("gamma:SessionStart", lines(8)),
  ];
  const window = 4096;
  const budget = ((window * HOOK_CONTEXT_SHARE) / 100) * 4;
  const { injections, cuts } = fitHookContext(arrived, window);
  const total = injections.reduce((n, i) => n + i.content.length, 0);
  assert.ok(total <= budget, `${total} > ${budget}`);
  assert.ok(total > budget * 0.9, `${total}: the share is used, not wasted`);
  assert.equal(injections[2].content, arrived[2].content, "the short one is whole");
  assert.deepEqual(
    cuts.map((c) => c.source),
    ["alpha:SessionStart", "beta:SessionStart"],
  );
  // Equal parts: the two long ones end up the same length, give or take the note's digits.
  assert.ok(Math.abs(injections[0].content.length - injections[1].content.length) <= 2);
  for (const [i, inj] of injections.slice(0, 2).entries()) {
    const [head, note] = inj.content.split("\n[… ");
    assert.ok(arrived[i].content.startsWith(`${head}\n`), "whole lines, from the start");
    assert.match(
      note,
      /^\d+ more characters of this text were cut to fit the model's context window\]$/,
    );
    assert.equal(Number(/^\d+/.exec(note)?.[0]), arrived[i].content.length - head.length);
    assert.equal(inj.beforePrompt, true, "the rest of the injection is as it came");
  }
  // The same texts are cut the same way: the conversation's requests stay the same.
  assert.deepEqual(fitHookContext(arrived, window), { injections, cuts });
  assert.equal(
    cutsNotice(cuts, window),
    `hook context cut to fit the 4,096-token window: alpha:SessionStart ${fmt(arrived[0].content.length)} → ${fmt(injections[0].content.length)}, beta:SessionStart ${fmt(arrived[1].content.length)} → ${fmt(injections[1].content.length)} characters (what hooks add at once may take at most 25% of the window: hook_context_budget in providers.yaml or the agent)`,
  );
});

test("a text with no line break near the cut is cut where the room ends", () => {
  const text = "y".repeat(5000);
  const cut = cutText(text, 1000, "(hook output is capped)");
  assert.equal(cut.length <= 1000, true);
  assert.match(
    cut,
    /^y+\n\[… \d+ more characters of this text were cut \(hook output is capped\)\]$/,
  );
  assert.equal(cutText("short", 1000), "short");
  // Never half of an emoji.
  const emoji = cutText("🙂".repeat(1000), 502);
  assert.ok(!/[\uD800-\uDBFF]\n/.test(emoji), "no lone high surrogate before the note");
  assert.ok(emoji.startsWith("🙂") && emoji.length <= 502);
});
