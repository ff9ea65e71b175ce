/**
 * Searching a plugin-pack catalog by name, description and tags: every word of the query must
 * appear in one of them; packs whose name matches come first. Shared by `islet plugins search`
 * and the app's Catalog tab, so both find the same packs.
 */
export interface Searchable {
  name: string;
  description: string;
  tags: readonly string[];
}

function words(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Higher is better; 0 = no match. */
function score(pack: Searchable, terms: string[]): number {
  const name = pack.name.toLowerCase();
  const description = pack.description.toLowerCase();
  let total = 0;
  for (const term of terms) {
    let best = 0;
    if (name === term) best = 8;
    else if (name.startsWith(term)) best = 6;
    else if (name.includes(term)) best = 4;
    if (pack.tags.includes(term)) best = Math.max(best, 3);
    else if (pack.tags.some((t) => t.includes(term))) best = Math.max(best, 2);
    if (best === 0 && description.includes(term)) best = 1;
    if (best === 0) return 0;
    total += best;
  }
  return total;
}

/** The packs matching `query` (all of them when it is blank) and carrying `tag` (when given). */
export function searchCatalog<T extends Searchable>(
  packs: readonly T[],
  query: string,
  tag?: string | null,
): T[] {
  const terms = words(query);
  const wantTag = tag?.trim().toLowerCase() || null;
  const scored = packs
    .filter((p) => wantTag === null || p.tags.includes(wantTag))
    .map((p, i) => ({ p, i, s: terms.length === 0 ? 1 : score(p, terms) }))
    .filter((x) => x.s > 0);
  if (terms.length > 0) scored.sort((a, b) => b.s - a.s || a.i - b.i);
  return scored.map((x) => x.p);
}

/**
 * Entries without tags (what a marketplace lists from other repositories) matching `query` by
 * the same rules: all of them when it is blank.
 */
export function searchEntries<T extends { name: string; description: string }>(
  entries: readonly T[],
  query: string,
): T[] {
  const searchable = entries.map((entry) => ({
    entry,
    name: entry.name,
    description: entry.description,
    tags: [],
  }));
  return searchCatalog(searchable, query).map((m) => m.entry);
}

/** Every tag, most used first (then alphabetically), for a tag filter. */
export function catalogTags(packs: readonly Searchable[]): string[] {
  const counts = new Map<string, number>();
  for (const p of packs) for (const t of p.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([t]) => t);
}
