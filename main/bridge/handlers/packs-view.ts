/**
 * What the Catalog tab shows: every catalog's packs with whether each is installed (matched by
 * origin URL and subpath), each catalog's state, and the installed packs no catalog lists.
 */
import { catalogTags } from "../../host/catalog-search.ts";
import { installedFromCatalog } from "../../packs/catalog/installed.ts";
import { statusLines, type CatalogSet } from "../../packs/catalog/load.ts";
import type { InstalledPack } from "../../packs/types.ts";
import type { CatalogView, InstalledPackView } from "../schemas/packs.ts";

export function installedView(pack: InstalledPack): InstalledPackView {
  const o = pack.origin;
  return {
    name: pack.name,
    dir: pack.dir,
    scope: pack.scope,
    plugins: [...pack.plugins],
    ...(pack.remote?.length ? { remote: pack.remote.map((r) => ({ ...r })) } : {}),
    origin: o
      ? {
          url: o.url,
          ref: o.ref ?? null,
          subpath: o.subpath ?? null,
          commit: o.commit,
          installedAt: o.installedAt,
          updatedAt: o.updatedAt ?? null,
          vendored: o.vendored,
        }
      : null,
  };
}

export function catalogView(
  set: CatalogSet,
  installed: readonly InstalledPack[],
  file: string,
): CatalogView {
  const matches = installedFromCatalog(set.packs, installed);
  const listed = new Set<InstalledPack>();
  const packs = set.packs.map((p) => {
    const found = matches.get(p) ?? [];
    for (const i of found) listed.add(i);
    return {
      name: p.name,
      description: p.description,
      url: p.url,
      ref: p.ref ?? null,
      subpath: p.subpath ?? null,
      tags: p.tags,
      author: p.author ?? null,
      catalog: p.catalog,
      installed: found[0] ? installedView(found[0]) : null,
    };
  });
  return {
    catalogs: set.catalogs.map(statusLines),
    packs,
    tags: catalogTags(set.packs),
    others: installed.filter((i) => !listed.has(i)).map(installedView),
    file,
  };
}
