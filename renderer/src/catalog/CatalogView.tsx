/**
 * The Catalog tab: the packs of every catalog (the default one and those added in Settings),
 * searchable and filtered by tag, each with Install / Update / Remove in place; Add from URL for
 * any other repository; and the installed packs no catalog lists.
 */
import { useMemo, useState, type ReactNode } from "react";
import { searchCatalog } from "../../../main/host/catalog-search.ts";
import type { ConnectionState } from "../bridge/index.ts";
import { Callout } from "../ui/Callout.tsx";
import { ReloadIcon, SearchIcon } from "../ui/icons.tsx";
import { AddFromUrl } from "./AddFromUrl.tsx";
import { CatalogProblems } from "./CatalogProblems.tsx";
import { PackCard, type PackActions } from "./PackCard.tsx";
import { matchingEntries, remoteKey } from "./RemoteEntries.tsx";
import { tabPanelProps } from "./PluginsTabs.tsx";
import { TagFilter } from "./TagFilter.tsx";
import { useCatalog, type CatalogView as View, type InstalledPack } from "./useCatalog.ts";
import { usePackOperations, type Operation } from "./usePackOperations.ts";
import "../ui/buttons.css";
import "./catalog.css";

function subtitle(view: View): string[] {
  // Packs installed from a source; plugins made here (no origin) are not "installed" from anywhere.
  const installed =
    view.packs.filter((p) => p.installed).length + view.others.filter((p) => p.origin).length;
  const sources = view.catalogs.filter((c) => c.state !== "error").length;
  const madeHere = view.others.filter((p) => !p.origin).length;
  return [
    `${view.packs.length} pack${view.packs.length === 1 ? "" : "s"} in ${sources} catalog${sources === 1 ? "" : "s"}`,
    `${installed} installed`,
    ...(madeHere > 0 ? [`${madeHere} made here`] : []),
  ];
}

/** Installed packs no catalog lists, under a heading of their own (nothing when there are none). */
function OtherPacks({
  id,
  title,
  packs,
  ops,
  actions,
}: {
  id: string;
  title: string;
  packs: InstalledPack[];
  ops: Record<string, Operation | undefined>;
  actions: PackActions;
}) {
  if (packs.length === 0) return null;
  return (
    <section className="pack-others" aria-labelledby={id}>
      <h2 id={id} className="pack-section-title">
        {title}
      </h2>
      <ul className="pack-list" aria-labelledby={id}>
        {packs.map((p) => (
          <li key={`${p.scope}:${p.name}`}>
            <PackCard
              cardKey={`installed:${p.scope}:${p.name}`}
              installed={p}
              op={ops[`installed:${p.scope}:${p.name}`]}
              actions={actions}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function CatalogView({
  tabs,
  connection,
  onManageCatalogs,
}: {
  tabs: ReactNode;
  connection: ConnectionState;
  onManageCatalogs?(): void;
}) {
  const catalog = useCatalog();
  const operations = usePackOperations();
  const [query, setQuery] = useState("");
  const [tag, setTag] = useState<string | null>(null);
  const view = catalog.view;
  const shown = useMemo(
    () => (view ? searchCatalog(view.packs, query, tag) : []),
    [view, query, tag],
  );
  const online = connection === "open";

  const actions: PackActions = {
    install: (pack) =>
      void operations.install(pack.name, {
        source: pack.url,
        ...(pack.ref ? { ref: pack.ref } : {}),
        ...(pack.subpath ? { subpath: pack.subpath } : {}),
        name: pack.name,
        scope: "global",
      }),
    installRemote: (installed, entry) =>
      void operations.install(remoteKey(installed, entry.name), {
        source: installed.name,
        plugin: entry.name,
        scope: installed.scope,
      }),
    ops: operations.ops,
    update: (key, installed) => void operations.update(key, installed.name),
    remove: (key, installed) => void operations.remove(key, installed.name),
    dismiss: operations.dismiss,
    onTag: setTag,
    query,
  };
  // Packs no catalog lists follow the search too: by name and plugins, or what they list.
  const others = useMemo(
    () =>
      (view?.others ?? []).filter(
        (p) =>
          query.trim() === "" ||
          searchCatalog([{ name: p.name, description: p.plugins.join(" "), tags: [] }], query)
            .length > 0 ||
          matchingEntries(p, query).length > 0,
      ),
    [view, query],
  );

  return (
    <section className="view" aria-labelledby="plugins-title">
      <header className="view-header">
        <div>
          <h1 id="plugins-title">Plugins</h1>
          <p className="view-subtitle">
            {view ? subtitle(view).join(" · ") : "Plugin packs from catalogs and git"}
          </p>
        </div>
        <div className="toolbar">
          <label className="search">
            <SearchIcon />
            <span className="visually-hidden">Search the catalog</span>
            <input
              type="search"
              placeholder="Search packs"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Escape") setQuery("");
              }}
            />
          </label>
          <button
            type="button"
            className="button"
            onClick={() => catalog.refresh(true)}
            disabled={catalog.loading || !online}
            aria-busy={catalog.loading}
            title="Fetch the catalogs added by URL again"
          >
            <span className={catalog.loading && view ? "spin" : undefined}>
              <ReloadIcon />
            </span>
            Refresh
          </button>
        </div>
        {tabs}
      </header>

      <div className="view-body catalog" {...tabPanelProps("catalog")}>
        {catalog.error && online ? (
          <Callout tone="bad" role="alert" title="Could not list the catalog">
            <p>
              {catalog.error}.{" "}
              <button type="button" className="link-button" onClick={() => catalog.refresh()}>
                Try again
              </button>
            </p>
          </Callout>
        ) : null}

        <AddFromUrl operations={operations} />

        {view ? (
          <>
            <CatalogProblems catalogs={view.catalogs} onManage={onManageCatalogs} />
            <TagFilter tags={view.tags} value={tag} onChange={setTag} />
            {shown.length === 0 ? (
              <p className="no-match">
                {view.packs.length === 0
                  ? "No catalog lists any pack."
                  : `No catalog pack matches${query ? ` “${query}”` : ""}${tag ? ` tagged ${tag}` : ""}.`}{" "}
                {query || tag ? (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      setQuery("");
                      setTag(null);
                    }}
                  >
                    Show all packs
                  </button>
                ) : null}
              </p>
            ) : (
              <ul className="pack-list" aria-label="Catalog packs">
                {shown.map((p) => (
                  <li key={p.name}>
                    <PackCard
                      cardKey={p.name}
                      catalog={p}
                      installed={p.installed}
                      op={operations.ops[p.name]}
                      actions={actions}
                    />
                  </li>
                ))}
              </ul>
            )}
            <OtherPacks
              id="others-title"
              title="Installed from elsewhere"
              packs={others.filter((p) => p.origin)}
              ops={operations.ops}
              actions={actions}
            />
            <OtherPacks
              id="local-title"
              title="Made here or copied from a folder"
              packs={others.filter((p) => !p.origin)}
              ops={operations.ops}
              actions={actions}
            />
          </>
        ) : catalog.error === null ? (
          <p className="loading" role="status">
            <span className="spinner" aria-hidden="true" /> Reading the catalogs…
          </p>
        ) : null}
      </div>
    </section>
  );
}
