/**
 * One pack: a catalog entry (with whether it is installed) or an installed pack no catalog
 * lists. Install / Update / Remove act on it in place; Remove asks first, on the card itself.
 */
import { useId, useState } from "react";
import { FolderIcon } from "../ui/icons.tsx";
import { OperationStatus } from "./OperationStatus.tsx";
import { RemoteEntries, type RemoteEntry } from "./RemoteEntries.tsx";
import type { CatalogPack, InstalledPack } from "./useCatalog.ts";
import type { Operation } from "./usePackOperations.ts";

export interface PackActions {
  install(pack: CatalogPack): void;
  update(key: string, installed: InstalledPack): void;
  remove(key: string, installed: InstalledPack): void;
  dismiss(key: string): void;
  /** Install a plugin an installed marketplace lists from another repository, as its own pack. */
  installRemote?(pack: InstalledPack, entry: RemoteEntry): void;
  /** Operations by card key, for the marketplace's entries' own Install buttons. */
  ops?: Record<string, Operation | undefined>;
  /** A tag was clicked: filter by it. */
  onTag?(tag: string): void;
  /** The catalog's search, which a marketplace's entries from other repositories follow. */
  query?: string;
}

const when = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

function InstalledFacts({ pack }: { pack: InstalledPack }) {
  const o = pack.origin;
  const count = pack.plugins.length;
  return (
    <p className="pack-installed">
      {count} plugin{count === 1 ? "" : "s"}
      {count ? <span className="pack-plugins">: {pack.plugins.join(", ")}</span> : null}
      {o ? (
        <>
          {" · "}
          <code title={o.commit}>{o.commit.slice(0, 7)}</code>
          {" · "}
          {o.updatedAt ? `updated ${when(o.updatedAt)}` : `installed ${when(o.installedAt)}`}
        </>
      ) : (
        " · made here or copied from a folder (no update source)"
      )}
    </p>
  );
}

export function PackCard({
  cardKey,
  catalog,
  installed,
  op,
  actions,
}: {
  cardKey: string;
  /** The catalog's entry; absent for an installed pack no catalog lists. */
  catalog?: CatalogPack;
  installed: InstalledPack | null;
  op: Operation | undefined;
  actions: PackActions;
}) {
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const name = catalog?.name ?? installed?.name ?? cardKey;
  const busy = op?.running === true;
  const url = catalog?.url ?? installed?.origin?.url ?? null;
  const ref = catalog?.ref ?? installed?.origin?.ref ?? null;
  return (
    <article
      className={`pack-card${installed ? " pack-card-installed" : ""}`}
      aria-labelledby={titleId}
      aria-busy={busy}
    >
      <div className="pack-body">
        <header className="pack-head">
          <h3 id={titleId} className="pack-name">
            {name}
          </h3>
          {installed ? (
            <span className="badge badge-active">
              <span className="dot" aria-hidden="true" />
              Installed{installed.name !== name ? ` as ${installed.name}` : ""}
            </span>
          ) : null}
          {installed ? (
            <span className="tag">
              {installed.scope === "global" ? "Global" : "This workspace"}
            </span>
          ) : null}
          {catalog?.author ? <span className="pack-author">by {catalog.author}</span> : null}
        </header>
        {catalog?.description ? <p className="pack-desc">{catalog.description}</p> : null}
        {installed ? <InstalledFacts pack={installed} /> : null}
        {installed && actions.installRemote ? (
          <RemoteEntries
            pack={installed}
            query={actions.query}
            ops={actions.ops ?? {}}
            install={actions.installRemote}
            dismiss={actions.dismiss}
          />
        ) : null}
        <div className="pack-meta">
          {url ? (
            <span className="path pack-url" title="Where it comes from">
              <FolderIcon />
              <span>
                {url}
                {ref ? `#${ref}` : ""}
                {catalog?.subpath ? ` · ${catalog.subpath}` : ""}
              </span>
            </span>
          ) : null}
          {catalog && catalog.tags.length > 0 ? (
            <ul className="pack-tags" aria-label="Tags">
              {catalog.tags.map((t) => (
                <li key={t}>
                  {actions.onTag ? (
                    <button
                      type="button"
                      className="chip chip-small"
                      onClick={() => actions.onTag?.(t)}
                      aria-label={`Show packs tagged ${t}`}
                    >
                      {t}
                    </button>
                  ) : (
                    <span className="chip chip-small">{t}</span>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </div>

      <div className="pack-actions">
        {confirming && installed ? (
          <div
            className="pack-confirm"
            role="group"
            aria-label={`Remove ${installed.name}?`}
            onKeyDown={(e) => {
              if (e.key === "Escape") setConfirming(false);
            }}
          >
            <span>Remove {installed.name}?</span>
            <button
              type="button"
              className="button button-small"
              autoFocus
              onClick={() => setConfirming(false)}
            >
              Keep
            </button>
            <button
              type="button"
              className="button button-small button-danger"
              onClick={() => {
                setConfirming(false);
                actions.remove(cardKey, installed);
              }}
            >
              Remove
            </button>
          </div>
        ) : installed ? (
          <>
            {installed.origin ? (
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => actions.update(cardKey, installed)}
                aria-label={`Update ${installed.name}`}
              >
                {busy && op?.kind === "update" ? "Updating…" : "Update"}
              </button>
            ) : null}
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => setConfirming(true)}
              aria-label={`Remove ${installed.name}`}
            >
              {busy && op?.kind === "remove" ? "Removing…" : "Remove"}
            </button>
          </>
        ) : catalog ? (
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => actions.install(catalog)}
            aria-label={`Install ${catalog.name}`}
          >
            {busy ? "Installing…" : "Install"}
          </button>
        ) : null}
      </div>

      <div className="pack-status">
        <OperationStatus op={op} name={name} onDismiss={() => actions.dismiss(cardKey)} />
      </div>
    </article>
  );
}
