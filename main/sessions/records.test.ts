import assert from "node:assert/strict";
import { test } from "node:test";
import { messageProblem } from "./message-check.ts";
import { encodeRecord, MESSAGE_LINE_PREFIX, messageSchema, recordSchemas } from "./records.ts";
import { statsRecordProblem } from "./stats-check.ts";
import { msg, stats } from "./testing.ts";
import { titleFromText } from "./title.ts";
import { isCanonicalSessionId, isSafeSessionId, newSessionId } from "./ids.ts";

const good: unknown[] = [
  msg("a", "user", "hi"),
  msg("b", "assistant", "", {
    thinking: "hmm",
    toolCalls: [{ id: "c1", name: "Read", arguments: { path: "x" } }],
  }),
  msg("c", "tool", "out", { toolCallId: "c1", toolName: "Read", isError: true }),
  msg("d", "user", "note", { kind: "synthetic", source: "plugin-x", eject: true }),
  { ...msg("e", "assistant", "x"), futureField: [1, 2] },
];

const bad: unknown[] = [
  null,
  [],
  { ...msg("a", "user", "x"), id: "" },
  { ...msg("a", "user", "x"), role: "robot" },
  { ...msg("a", "user", "x"), content: 3 },
  { ...msg("a", "user", "x"), kind: "odd" },
  { ...msg("a", "user", "x"), createdAt: undefined },
  { ...msg("a", "user", "x"), thinking: 1 },
  { ...msg("a", "user", "x"), isError: "yes" },
  { ...msg("a", "user", "x"), toolCalls: {} },
  { ...msg("a", "user", "x"), toolCalls: [{ id: "c", name: "R", arguments: [] }] },
  { ...msg("a", "user", "x"), toolCalls: [{ id: 1, name: "R", arguments: {} }] },
];

test("the fast message check agrees with the zod schema", () => {
  for (const m of good) {
    assert.equal(messageProblem(m), null, JSON.stringify(m));
    assert.ok(messageSchema.safeParse(m).success);
  }
  for (const m of bad) {
    assert.notEqual(messageProblem(m), null, JSON.stringify(m));
    assert.ok(!messageSchema.safeParse(m).success, JSON.stringify(m));
  }
});

const goodStats: Record<string, unknown>[] = [
  { t: "stats", stats },
  { t: "stats", stats: { ...stats, topTools: [] }, lastApiTokens: 1200 },
];
const badStats: Record<string, unknown>[] = [
  { t: "stats" },
  { t: "stats", stats: [] },
  { t: "stats", stats: { ...stats, startTime: 1 } },
  { t: "stats", stats: { ...stats, duration: Number.NaN } },
  { t: "stats", stats: { ...stats, turns: "3" } },
  { t: "stats", stats: { ...stats, iterations: Number.POSITIVE_INFINITY } },
  { t: "stats", stats: { ...stats, compactions: undefined } },
  { t: "stats", stats: { ...stats, tools: { calls: 1 } } },
  { t: "stats", stats: { ...stats, tokens: null } },
  { t: "stats", stats: { ...stats, topTools: {} } },
  { t: "stats", stats: { ...stats, topTools: [{ name: "Read" }] } },
  { t: "stats", stats: { ...stats, topTools: [{ name: 1, count: 1 }] } },
  { t: "stats", stats, lastApiTokens: Number.NaN },
];

test("the fast stats check agrees with the zod schema", () => {
  for (const r of goodStats) {
    assert.equal(statsRecordProblem(r), null, JSON.stringify(r));
    assert.ok(recordSchemas.stats.safeParse(r).success);
  }
  for (const r of badStats) {
    assert.notEqual(statsRecordProblem(r), null, JSON.stringify(r));
    assert.ok(!recordSchemas.stats.safeParse(r).success, JSON.stringify(r));
  }
});

test("message lines start with the sniffable prefix and the id, whatever the key order", () => {
  const m = { content: "c", role: "user", kind: "normal", createdAt: "t", id: "m_1" } as const;
  const line = encodeRecord({ t: "message", message: m });
  assert.ok(line.startsWith(MESSAGE_LINE_PREFIX + 'm_1"'));
  assert.ok(line.endsWith("}\n"));
  assert.equal(line.indexOf("\n"), line.length - 1, "exactly one line");
});

test("titles are one line, trimmed to 60 chars at a word boundary", () => {
  assert.equal(titleFromText("  fix\nthe   build \n"), "fix the build");
  const long = "Please refactor the session store so that it loads ten thousand messages quickly";
  const title = titleFromText(long);
  assert.ok(title.length <= 60, title);
  assert.ok(title.endsWith("…"));
  assert.ok(long.startsWith(title.slice(0, -1)));
  assert.ok(!title.slice(0, -1).endsWith(" "));
});

test("session ids sort by creation time and are safe file names", () => {
  const a = newSessionId(new Date("2026-11-21T23:59:59Z"));
  const b = newSessionId(new Date("2026-11-22T00:00:00Z"));
  assert.match(a, /^20261121-235959-[0-9a-z]{6}$/);
  assert.ok(a < b);
  assert.ok(isCanonicalSessionId(a));
  assert.ok(isSafeSessionId("2026"));
  for (const evil of ["../x", "a/b", "a.b", "", "a\\b"]) assert.ok(!isSafeSessionId(evil), evil);
});
