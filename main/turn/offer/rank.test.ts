/**
 * The ranker follows a catalog that changes a little at a time (MCP servers coming up after the
 * start) by the difference: it must rank exactly as an index built anew would.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { candidateKey, type Candidate } from "./catalog.ts";
import { byScore, ranker } from "./rank.ts";

function item(kind: Candidate["kind"], name: string, description: string): Candidate {
  return { key: candidateKey(kind, name), kind, name, description, tokens: 10 };
}

const TOPICS = "kubernetes terraform postgres react stripe sentry figma slack".split(" ");

function catalogOf(items: Candidate[]): Map<string, Candidate> {
  return new Map(items.map((c) => [c.key, c]));
}

const base = (): Candidate[] =>
  TOPICS.flatMap((t, i) => [
    item("skill", `${t}-helper`, `Helps with ${t} work: plans, reviews and fixes`),
    item("agent", `${t}-expert`, `An expert in ${t} and ${TOPICS[(i + 1) % TOPICS.length]}`),
    item("tool", `mcp__${t}__search`, `Search ${t} for issues and pages`),
  ]);

const QUERIES = ["review the kubernetes deployment", "search sentry issues", "postgres plans"];

test("a catalog that changed a little ranks as one indexed anew, and the old one still ranks its own", () => {
  const before = catalogOf(base());
  assert.ok(ranker(before).scores("terraform").has("tool:mcp__terraform__search"));

  // One server's tools went away, one came up, one skill's description changed.
  const after = catalogOf([
    ...base().filter((c) => c.key !== "tool:mcp__terraform__search"),
    item("tool", "mcp__linear__create_issue", "Create an issue in linear"),
  ]);
  after.set(
    "skill:react-helper",
    item("skill", "react-helper", "Builds react components and reviews hooks"),
  );
  const followed = ranker(after);

  // Another catalog takes the live index; a copy of `after` then gets one built whole.
  ranker(catalogOf([item("skill", "other", "Something else entirely")]));
  const fresh = ranker(new Map(after));

  for (const query of [...QUERIES, "linear issue", "react hooks components", "terraform"]) {
    const a = followed.scores(query);
    const b = fresh.scores(query);
    assert.deepEqual(byScore(a, after), byScore(b, after), query);
    for (const [key, score] of a)
      assert.ok(Math.abs(score - b.get(key)!) < 1e-9, `${query}: ${key}`);
  }
  assert.equal(followed.scores("terraform").has("tool:mcp__terraform__search"), false);
  // A turn that chose before the change still finds what its own catalog had.
  assert.ok(ranker(before).scores("terraform").has("tool:mcp__terraform__search"));
  assert.equal(ranker(before).scores("linear").has("tool:mcp__linear__create_issue"), false);
});
