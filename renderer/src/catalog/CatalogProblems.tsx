/** What is wrong with the catalogs (unreadable, offline copies, broken entries), with a way to Settings. */
import { Callout } from "../ui/Callout.tsx";
import type { CatalogStatus } from "./useCatalog.ts";

export function CatalogProblems({
  catalogs,
  onManage,
}: {
  catalogs: CatalogStatus[];
  onManage?(): void;
}) {
  const failed = catalogs.filter((c) => c.state === "error");
  const cached = catalogs.filter((c) => c.state === "cached");
  const entries = catalogs.flatMap((c) => c.problems);
  if (failed.length + cached.length + entries.length === 0) return null;
  const manage = onManage ? (
    <p>
      <button type="button" className="link-button" onClick={onManage}>
        Manage catalogs in Settings
      </button>
    </p>
  ) : null;
  return (
    <>
      {failed.length > 0 || entries.length > 0 ? (
        <Callout
          tone="warn"
          title={
            failed.length > 0
              ? `${failed.length} catalog${failed.length === 1 ? "" : "s"} could not be read — the others are listed`
              : `${entries.length} catalog entr${entries.length === 1 ? "y was" : "ies were"} left out`
          }
        >
          <ul className="callout-list catalog-problems">
            {[...failed.map((c) => c.error ?? c.source), ...entries].map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {manage}
        </Callout>
      ) : null}
      {cached.length > 0 ? (
        <Callout tone="info" title="Offline: showing the last copy of some catalogs">
          <ul className="callout-list catalog-problems">
            {cached.map((c) => (
              <li key={c.source}>{c.error}</li>
            ))}
          </ul>
        </Callout>
      ) : null}
    </>
  );
}
