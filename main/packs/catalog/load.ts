/**
 * Every catalog the user has, merged: the default one first, then the ones added in settings in
 * their order. Each catalog reports its own state (ok, a cached copy, or the one-line error) and
 * its broken entries; a pack name listed by two catalogs is listed once (the first catalog wins,
 * and a different repository under the same name is reported).
 */
import fs from "node:fs/promises";
import { parseCatalog, type CatalogEntry } from "./entry.ts";
import { formatProblem, type Problem } from "../../host/problem.ts";
import { fetchCatalog, type FetchOptions } from "./fetch.ts";
import { originKey } from "./origin-url.ts";
import { catalogKind, resolveCatalogPath, type CatalogKind } from "./sources.ts";

export interface CatalogStatus {
  /** As configured: a path or URL (the default catalog: its file). */
  source: string;
  kind: CatalogKind;
  /** "cached": the URL could not be fetched; the last copy is listed. */
  state: "ok" | "cached" | "error";
  /** Packs it lists (after leaving out broken entries). */
  entries: number;
  /** What is wrong with the catalog as a whole, or why a cached copy is shown; one line. */
  error: string | null;
  /** One per broken entry (and per name clash with an earlier catalog). */
  problems: Problem[];
  /** URL catalogs: when the copy listed was fetched (ISO). */
  fetchedAt: string | null;
}

/** A catalog's status as listings show it (the app's Catalog tab, `--json`): each problem a line. */
export function statusLines(status: CatalogStatus): Omit<CatalogStatus, "problems"> & {
  problems: string[];
} {
  return { ...status, problems: status.problems.map(formatProblem) };
}

export interface CatalogPack extends CatalogEntry {
  /** The catalog that lists it (its `source`). */
  catalog: string;
}

export interface CatalogSet {
  catalogs: CatalogStatus[];
  packs: CatalogPack[];
}

export interface LoadOptions extends Omit<FetchOptions, "globalHome"> {
  globalHome: string;
  /** The catalogs added in settings. */
  sources: readonly string[];
  /** The default catalog's file; null for none. */
  defaultFile: string | null;
}

async function readOne(
  source: string,
  kind: CatalogKind,
  opts: LoadOptions,
): Promise<{ status: CatalogStatus; entries: CatalogEntry[] }> {
  const status: CatalogStatus = {
    source,
    kind,
    state: "ok",
    entries: 0,
    error: null,
    problems: [],
    fetchedAt: null,
  };
  let text: string;
  if (kind === "url") {
    const fetched = await fetchCatalog(source, (t) => parseCatalog(t, source).error === null, opts);
    if ("error" in fetched)
      return { status: { ...status, state: "error", error: fetched.error }, entries: [] };
    text = fetched.text;
    status.fetchedAt = fetched.fetchedAt;
    if (fetched.cached) {
      status.state = "cached";
      status.error = `${source}: could not fetch a fresh copy (${fetched.why}); listing the copy from ${fetched.fetchedAt}`;
    }
  } else {
    const file = kind === "default" ? source : resolveCatalogPath(source, opts.globalHome);
    try {
      text = await fs.readFile(file, "utf8");
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why =
        code === "ENOENT"
          ? "no such file"
          : code === "EISDIR"
            ? "a folder, not a file"
            : (err as Error).message;
      return {
        status: { ...status, state: "error", error: `${file}: cannot read the catalog (${why})` },
        entries: [],
      };
    }
  }
  const parsed = parseCatalog(text, source);
  if (parsed.error !== null)
    return { status: { ...status, state: "error", error: parsed.error }, entries: [] };
  return {
    status: { ...status, entries: parsed.entries.length, problems: parsed.problems },
    entries: parsed.entries,
  };
}

export async function loadCatalogs(opts: LoadOptions): Promise<CatalogSet> {
  const wanted: { source: string; kind: CatalogKind }[] = [
    ...(opts.defaultFile ? [{ source: opts.defaultFile, kind: "default" as const }] : []),
    ...[...new Set(opts.sources)].map((source) => ({ source, kind: catalogKind(source) })),
  ];
  const read = await Promise.all(wanted.map((w) => readOne(w.source, w.kind, opts)));
  const byName = new Map<string, CatalogPack>();
  for (const { status, entries } of read) {
    for (const entry of entries) {
      const first = byName.get(entry.name.toLowerCase());
      if (!first) {
        byName.set(entry.name.toLowerCase(), { ...entry, catalog: status.source });
        continue;
      }
      status.entries--;
      if (originKey(first.url) !== originKey(entry.url))
        status.problems.push({
          source: status.source,
          title: `"${entry.name}" (${entry.url}) is also in ${first.catalog} (${first.url}); that one is listed`,
        });
    }
  }
  return { catalogs: read.map((r) => r.status), packs: [...byName.values()] };
}
