// The import graph of the repo's TypeScript: which file imports which (type-only imports count:
// a floor order is about what a reader must know, not only what runs). Tests (*.test.ts) may
// climb, as the lint lets them (scripts/eslint-layers.js); nothing may import in a loop. Used by
// scripts/import-graph.test.ts to prove zero climbs and zero loops, and by hand:
//
//   node scripts/import-graph.ts            climbs against the floors, loops, folder sizes
//   node scripts/import-graph.ts --folders  which folder imports which (one line each)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { FLOORS, floorOf } from "./floors.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const SKIP = new Set(["node_modules", "out", "dist", ".git", "fixtures", "results"]);

/** Every .ts/.tsx file under `dirs` (repo paths, "/"-separated). */
export function sourceFiles(dirs: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
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
export type ImportGraph = Map<string, string[]>;

export function importGraph(dirs = ["main", "plugins", "e2e", "bench"]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(dirs)) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = new Set<string>();
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

const isTest = (file: string): boolean => /\.test\.tsx?$/.test(file);

/** Imports from a lower floor to a higher one, tests aside. */
export interface Climb {
  from: string;
  to: string;
  fromFloor: string;
  toFloor: string;
}

export function climbs(graph: ImportGraph): Climb[] {
  const found: Climb[] = [];
  for (const [from, targets] of graph) {
    if (isTest(from)) continue;
    const a = floorOf(from);
    if (a === null) continue;
    for (const to of targets) {
      const b = floorOf(to);
      if (b === null || b.index <= a.index) continue;
      found.push({ from, to, fromFloor: a.path, toFloor: b.path });
    }
  }
  return found;
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
export function loops(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
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
export function folderEdges(graph: ImportGraph): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const a = floorOf(from)?.path ?? path.posix.dirname(from);
    for (const to of targets) {
      const b = floorOf(to)?.path ?? path.posix.dirname(to);
      if (a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
    }
  }
  return edges;
}

if (import.meta.main) {
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
