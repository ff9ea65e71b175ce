// The import graph of the repo's TypeScript: which file imports which (type-only imports count:
// a floor order is about what a reader must know, not only what runs). Tests (*.test.ts) may
// climb, as the lint lets them (scripts/eslint-layers.js); nothing may import in a loop. Used by
// scripts/import-graph.test.ts to prove zero climbs and zero loops, and by hand:
//
//   node scripts/import-graph.js            climbs against the floors, loops, folder sizes
//   node scripts/import-graph.js --folders  which folder imports which (one line each)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { FLOORS, floorOf } from "./floors.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const SKIP = new Set(["node_modules", "out", "dist", ".git", "fixtures", "results"]);

/** Every .ts/.tsx file under `dirs` (repo paths, "/"-separated). */
export function sourceFiles(dirs) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(rel);
    }
  };
  for (const dir of dirs) walk(dir);
  return files.sort();
}

/** `file` → the repo files it imports (relative specifiers and `@islet/sdk`). */
export function importGraph(dirs = ["main", "plugins", "e2e", "bench"]) {
  const graph = new Map();
  for (const file of sourceFiles(dirs)) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = new Set();
    for (const { fileName: spec } of importedFiles) {
      if (spec === "@islet/sdk" || spec.startsWith("@islet/sdk/")) {
        targets.add("plugins/sdk/index.ts");
      } else if (spec.startsWith(".")) {
        targets.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)));
      }
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

const isTest = (file) => /\.test\.tsx?$/.test(file);

/** Imports from a lower floor to a higher one, tests aside. */
export function climbs(graph) {
  const found = [];
  for (const [from, targets] of graph) {
    if (isTest(from)) continue;
    const a = floorOf(from);
    if (a === null) continue;
    for (const to of targets) {
      const b = floorOf(to);
      if (b === null || b.index <= a.index || b.name === a.name) continue;
      found.push({ from, to, fromFloor: a.name, toFloor: b.name });
    }
  }
  return found;
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
export function loops(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** folder → the folders it imports, at the floors' granularity. */
export function folderEdges(graph) {
  const edges = new Map();
  for (const [from, targets] of graph) {
    const a = floorOf(from)?.name ?? path.posix.dirname(from);
    for (const to of targets) {
      const b = floorOf(to)?.name ?? path.posix.dirname(to);
      if (a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a).add(b);
    }
  }
  return edges;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const graph = importGraph();
  if (process.argv.includes("--folders")) {
    for (const [from, to] of [...folderEdges(graph)].sort())
      console.log(`${from} → ${[...to].sort().join(", ")}`);
  } else {
    const up = climbs(graph);
    const cyc = loops(graph);
    for (const c of up) console.log(`climb: ${c.from} (${c.fromFloor}) → ${c.to} (${c.toFloor})`);
    for (const l of cyc) console.log(`loop: ${l.join(" ⇄ ")}`);
    const unplaced = [...graph.keys()].filter((f) => !isTest(f) && !floorOf(f));
    for (const f of unplaced) console.log(`no floor: ${f}`);
    console.log(
      `${graph.size} files, ${FLOORS.length} floors, ${up.length} climbs, ${cyc.length} loops, ${unplaced.length} unplaced`,
    );
  }
}
