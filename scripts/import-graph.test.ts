/**
 * The floors hold in the code as it is: no file imports a floor above its own (tests aside), no
 * files import each other in a loop, and every file stands on a floor.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FLOORS, floorOf } from "./floors.ts";
import { climbs, importGraph, loops } from "./import-graph.ts";

describe("the import graph (main/, plugins/, e2e/, bench/)", () => {
  const graph = importGraph();

  it("has no climbs: each file imports only its own floor and the floors below", () => {
    const found = climbs(graph).map((c) => `${c.from} → ${c.to} (${c.fromFloor} → ${c.toFloor})`);
    assert.deepEqual(found, []);
  });

  it("has no loops", () => {
    assert.deepEqual(
      loops(graph).map((l) => l.join(" ⇄ ")),
      [],
    );
  });

  it("puts every file of main/ on a floor", () => {
    const unplaced = [...graph.keys()].filter(
      (f) => f.startsWith("main/") && !f.endsWith(".test.ts") && !floorOf(f),
    );
    assert.deepEqual(unplaced, []);
  });

  it("finds what the floors name: every floor holds files", () => {
    const empty = FLOORS.filter((f) => ![...graph.keys()].some((g) => floorOf(g)?.path === f.path));
    assert.deepEqual(
      empty.map((f) => f.path),
      [],
    );
  });

  it("sees a climb and a loop when there is one", () => {
    const planted = new Map(graph);
    planted.set("main/core/planted.ts", ["main/engine/engine.ts"]);
    planted.set("main/engine/engine.ts", [
      ...(graph.get("main/engine/engine.ts") ?? []),
      "main/engine/planted.ts",
    ]);
    planted.set("main/engine/planted.ts", ["main/engine/engine.ts"]);
    assert.deepEqual(
      climbs(planted).map((c) => `${c.from} → ${c.to}`),
      ["main/core/planted.ts → main/engine/engine.ts"],
    );
    assert.deepEqual(loops(planted), [["main/engine/engine.ts", "main/engine/planted.ts"]]);
  });
});
