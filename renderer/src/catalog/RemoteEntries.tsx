/**
 * What an installed Claude Code marketplace lists from other repositories: each entry with where
 * it would come from and an Install button, which installs it as a pack of its own through the
 * usual consent for that repository (the question says the marketplace lists it).
 */
import { useId } from "react";
import { OperationStatus } from "./OperationStatus.tsx";
import type { InstalledPack } from "./useCatalog.ts";
import type { Operation } from "./usePackOperations.ts";

export type RemoteEntry = NonNullable<InstalledPack["remote"]>[number];

/** The card key of one entry's operation. */
export const remoteKey = (pack: InstalledPack, entry: string) =>
  `remote:${pack.scope}:${pack.name}:${entry}`;

export function RemoteEntries({
  pack,
  ops,
  install,
  dismiss,
}: {
  pack: InstalledPack;
  ops: Record<string, Operation | undefined>;
  install(pack: InstalledPack, entry: RemoteEntry): void;
  dismiss(key: string): void;
}) {
  const titleId = useId();
  const entries = pack.remote ?? [];
  if (entries.length === 0) return null;
  return (
    <details className="pack-remote">
      <summary id={titleId}>
        {entries.length} more plugin{entries.length === 1 ? "" : "s"} it lists from other
        repositories, each installed on its own
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
