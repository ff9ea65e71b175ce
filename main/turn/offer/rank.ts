/**
 * Relevance of the candidates to a text, by BM25 (MiniSearch) over their names, descriptions and
 * when-to-use lines. Deterministic: the same candidates and text give the same scores.
 */
import MiniSearch from "minisearch";
import type { Candidate } from "./catalog.ts";

/** Words that say nothing about which extension fits ("please use the …"). */
const STOP = new Set(
  (
    "a an and are as at be but by can do for from how i if in into is it its me my no not of on " +
    "or our please so that the then this to use using we what when which will with you your"
  ).split(" "),
);

/** Words of letters and digits: `mcp__github__create_issue` and `pdf-extract` split into theirs. */
const tokenize = (text: string): string[] => text.split(/[^\p{L}\p{N}]+/u);

const processTerm = (term: string): string | null => {
  const t = term.toLowerCase();
  return t.length < 2 || STOP.has(t) ? null : t;
};

export interface Ranker {
  /** Scores above zero by key; `loose` also matches word beginnings and near spellings (search). */
  scores(text: string, opts?: { loose?: boolean }): Map<string, number>;
}

/** Longest text searched: a pasted file says little more than its first lines about intent. */
const MAX_QUERY = 4000;

/** The rankers made, by catalog: every user turn ranks the same set until something changes. */
const made = new WeakMap<ReadonlyMap<string, Candidate>, Ranker>();

/**
 * The index of the latest catalog. Indexing hundreds of extensions takes tens of milliseconds, and
 * a catalog changes a little at a time (MCP servers come up one by one after the start, a plugin
 * activates): so a new catalog changes this index by the difference instead of building it anew.
 */
let live: {
  catalog: ReadonlyMap<string, Candidate>;
  index: MiniSearch<Candidate>;
  docs: Map<string, Candidate>;
} | null = null;

/** The ranker of a catalog (catalog.ts keeps one map while nothing it lists changed). */
export function ranker(candidates: ReadonlyMap<string, Candidate>): Ranker {
  let found = made.get(candidates);
  if (!found) {
    follow(candidates);
    // A catalog that is no longer the latest (a turn begun before an MCP server came up, another
    // engine) gets an index of its own the first time it is asked.
    let own: MiniSearch<Candidate> | undefined;
    found = rankerOf(() =>
      live?.catalog === candidates ? live.index : (own ??= indexOf(candidates.values())),
    );
    made.set(candidates, found);
  }
  return found;
}

/** Makes the live index that of `candidates`: by the difference when it is small. */
function follow(candidates: ReadonlyMap<string, Candidate>): void {
  if (live?.catalog === candidates) return;
  const docs = live?.docs ?? new Map<string, Candidate>();
  const gone = [...docs.values()].filter((d) => !sameText(candidates.get(d.key), d));
  const added = [...candidates.values()].filter((c) => !sameText(docs.get(c.key), c));
  if (!live || gone.length + added.length > candidates.size / 2) {
    live = { catalog: candidates, index: indexOf(candidates.values()), docs: new Map(candidates) };
    return;
  }
  for (const d of gone) {
    live.index.remove(d);
    docs.delete(d.key);
  }
  for (const c of added) {
    live.index.add(c);
    docs.set(c.key, c);
  }
  live.catalog = candidates;
}

/** Whether two versions of an item index the same (the fields the index reads). */
function sameText(a: Candidate | undefined, b: Candidate): boolean {
  return (
    a !== undefined &&
    a.name === b.name &&
    a.description === b.description &&
    a.whenToUse === b.whenToUse
  );
}

function indexOf(candidates: Iterable<Candidate>): MiniSearch<Candidate> {
  const index = new MiniSearch<Candidate>({
    idField: "key",
    fields: ["name", "description", "whenToUse"],
    tokenize,
    processTerm,
  });
  index.addAll([...candidates]);
  return index;
}

function rankerOf(index: () => MiniSearch<Candidate>): Ranker {
  return {
    scores(text, opts = {}) {
      const out = new Map<string, number>();
      const query = text.slice(0, MAX_QUERY);
      if (query.trim() === "") return out;
      const hits = index().search(query, {
        boost: { name: 3, whenToUse: 1.5 },
        combineWith: "OR",
        ...(opts.loose ? { prefix: true, fuzzy: 0.2 } : {}),
      });
      for (const hit of hits) if (hit.score > 0) out.set(String(hit.id), hit.score);
      return out;
    },
  };
}

/** Keys by falling score, ties by name (then kind), so the order never depends on luck. */
export function byScore(
  scores: ReadonlyMap<string, number>,
  candidates: ReadonlyMap<string, Candidate>,
): string[] {
  return [...scores.keys()].sort((a, b) => {
    const d = scores.get(b)! - scores.get(a)!;
    if (d !== 0) return d;
    const ca = candidates.get(a)!;
    const cb = candidates.get(b)!;
    return ca.name < cb.name ? -1 : ca.name > cb.name ? 1 : ca.key < cb.key ? -1 : 1;
  });
}
