/**
 * Which catalog packs are installed: an installed pack whose `.origin.yaml` names the same
 * repository (compared as originKey does) and the same subpath. A pack copied from a local path
 * has no origin and matches nothing.
 */
import type { InstalledPack } from "../types.ts";
import type { CatalogPack } from "./load.ts";
import { originKey } from "./origin-url.ts";

const tidySubpath = (p: string | undefined) => (p ?? "").replace(/^\.?\/+|\/+$/g, "");

function key(url: string, subpath: string | undefined): string | null {
  const origin = originKey(url);
  return origin === null ? null : `${origin}#${tidySubpath(subpath)}`;
}

/** For each catalog pack, the installed packs from its repository (project ones first). */
export function installedFromCatalog(
  packs: readonly CatalogPack[],
  installed: readonly InstalledPack[],
): Map<CatalogPack, InstalledPack[]> {
  const byKey = new Map<string, InstalledPack[]>();
  for (const pack of installed) {
    if (!pack.origin) continue;
    const k = key(pack.origin.url, pack.origin.subpath);
    if (k === null) continue;
    byKey.set(k, [...(byKey.get(k) ?? []), pack]);
  }
  const out = new Map<CatalogPack, InstalledPack[]>();
  for (const pack of packs) {
    const k = key(pack.url, pack.subpath);
    const found = k === null ? [] : (byKey.get(k) ?? []);
    out.set(
      pack,
      [...found].sort((a, b) => (a.scope === b.scope ? 0 : a.scope === "project" ? -1 : 1)),
    );
  }
  return out;
}
