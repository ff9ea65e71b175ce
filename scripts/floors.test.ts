/**
 * The floor lists people read say what scripts/floors.ts says: docs/architecture.md's table lists
 * every floor from the ground up, and the README's lists the engine's floors from the top.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { FLOORS } from "./floors.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** The backticked paths of a Markdown section's table rows, in order. */
function tablePaths(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(heading);
  assert.ok(start >= 0, `no "${heading}" section`);
  const end = markdown.indexOf("\n## ", start + heading.length);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return section
    .split("\n")
    .filter((l) => l.startsWith("|") && !/^\|\s*-/.test(l))
    .flatMap((l) =>
      [...l.matchAll(/`((?:main|plugins|e2e|bench)\/[^`]*|main\/index\.ts)`/g)].map((m) => m[1]),
    )
    .filter((p) => FLOORS.some((f) => f.path === p));
}

it("docs/architecture.md lists every floor, from the ground up", () => {
  const listed = tablePaths(read("docs/architecture.md"), "## Floors");
  assert.deepEqual(
    listed,
    FLOORS.map((f) => f.path),
  );
});

it("the README lists the engine's floors from the top", () => {
  const engine = FLOORS.map((f) => f.path).filter(
    (p) => p.startsWith("main/") || p === "plugins/sdk/",
  );
  const top = ["main/electron/", "main/index.ts"];
  const expected = [...top, ...[...engine].reverse().filter((p) => !top.includes(p))];
  assert.deepEqual(tablePaths(read("README.md"), "## Where things are"), expected);
});
