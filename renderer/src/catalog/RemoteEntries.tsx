/**
 * What an installed Claude Code marketplace lists from other repositories: each entry with where
 * it would come from and an Install button, which installs it as a pack of its own through the
 * usual consent for that repository (the question says the marketplace lists it).
 */
import { useId } from "react";
import { searchEntries } from "../../../main/host/catalog-search.ts";
import { OperationStatus } from "./OperationStatus.tsx";
import type { InstalledPack } from "./useCatalog.ts";
import type { Operation } from "./usePackOperations.ts";

export type RemoteEntry = NonNullable<InstalledPack["remote"]>[number];

/** The card key of one entry's operation. */
export const remoteKey = (pack: InstalledPack, entry: string) =>
  `remote:${pack.scope}:${pack.name}:${entry}`;

/** The entries matching the catalog's search, by the catalog's rules (all of them for none). */
export function matchingEntries(pack: InstalledPack, query: string): RemoteEntry[] {
  return searchEntries(pack.remote ?? [], query);
}

export function RemoteEntries({
  pack,
  query = "",
  ops,
  install,
  dismiss,
}: {
  pack: InstalledPack;
  /** The catalog's search: a marketplace may list hundreds; only the matching ones show. */
  query?: string;
  ops: Record<string, Operation | undefined>;
  install(pack: InstalledPack, entry: RemoteEntry): void;
  dismiss(key: string): void;
}) {
  const titleId = useId();
  const all = pack.remote ?? [];
  if (all.length === 0) return null;
  const searching = query.trim() !== "";
  const entries = matchingEntries(pack, query);
  const plural = all.length === 1 ? "" : "s";
  return (
    // Opened by a search that matches, and left as the person set it otherwise.
    <details className="pack-remote" {...(searching ? { open: entries.length > 0 } : {})}>
      <summary id={titleId}>
        {searching
          ? `${entries.length} of ${all.length} plugin${plural} it lists from other repositories ${entries.length === 1 ? "matches" : "match"} “${query.trim()}”`
          : `${all.length} more plugin${plural} it lists from other repositories, each installed on its own`}
      </summary>
      <ul className="pack-remote-list" aria-labelledby={titleId}>
        {entries.map((entry) => {
          const key = remoteKey(pack, entry.name);
          const op = ops[key];
          const blocked = entry.source.startsWith("cannot be installed");
          return (
            <li key={entry.name} className="pack-remote-entry">
              <div className="pack-remote-head">
                <span className="pack-remote-name">{entry.name}</span>
                <button
                  type="button"
                  className="button button-small"
                  disabled={op?.running === true || blocked}
                  onClick={() => install(pack, entry)}
                  aria-label={`Install ${entry.name}`}
                >
                  {op?.running ? "Installing…" : "Install"}
                </button>
              </div>
              {entry.description ? <p className="pack-desc">{entry.description}</p> : null}
              <p className="path pack-remote-source">{entry.source}</p>
              <OperationStatus op={op} name={entry.name} onDismiss={() => dismiss(key)} />
            </li>
          );
        })}
      </ul>
    </details>
  );
}
