/**
 * Settings → Plugin catalogs: the default catalog and the ones added (a file path or an http(s)
 * URL), each with its state — ok with how many packs, a cached copy, or the one-line error.
 * Saved as `catalogs:` in settings.json, which `islet plugins search` reads too.
 */
import { useState, type FormEvent } from "react";
import { BridgeError } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";
import { useCatalog, type CatalogStatus } from "../catalog/useCatalog.ts";
import { Section } from "./Section.tsx";

const KIND = { default: "Default", file: "File", url: "URL" } as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function Status({ c }: { c: CatalogStatus }) {
  if (c.state === "error") return <p className="catalog-state catalog-state-bad">{c.error}</p>;
  const n = c.problems.length;
  const left = n ? ` · ${n} entr${n === 1 ? "y" : "ies"} left out` : "";
  if (c.state === "cached")
    return (
      <p className="catalog-state catalog-state-warn" title={c.error ?? undefined}>
        Offline copy from {c.fetchedAt ? new Date(c.fetchedAt).toLocaleString() : "earlier"} ·{" "}
        {plural(c.entries, "pack")}
        {left}
      </p>
    );
  return (
    <p className={`catalog-state ${left ? "catalog-state-warn" : "catalog-state-ok"}`}>
      OK · {plural(c.entries, "pack")}
      {left}
    </p>
  );
}

const refusal = (err: unknown) =>
  err instanceof BridgeError ? err.problem.title : errorMessage(err);

export function CatalogsSection() {
  const bridge = useBridge();
  const catalog = useCatalog();
  const [source, setSource] = useState("");
  const [adding, setAdding] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const view = catalog.view;

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (source.trim() === "") return;
    setAdding(true);
    setFailure(null);
    try {
      await bridge.call("catalog/add", { source: source.trim() });
      setSource("");
    } catch (err) {
      setFailure(refusal(err));
    } finally {
      setAdding(false);
    }
  };
  const remove = async (c: CatalogStatus) => {
    setFailure(null);
    try {
      await bridge.call("catalog/remove", { source: c.source });
    } catch (err) {
      setFailure(refusal(err));
    }
  };

  return (
    <Section
      id="catalogs"
      title="Plugin catalogs"
      description={
        <>
          Where the Catalog tab and <code>islet plugins search</code> find plugin packs: the default
          catalog, plus files and URLs added here
          {view ? (
            <>
              {" "}
              (saved in <span className="path">{view.file}</span>)
            </>
          ) : null}
          .
        </>
      }
    >
      {catalog.error && !view ? (
        <p className="form-error" role="alert">
          {catalog.error}
        </p>
      ) : null}
      {view ? (
        <ul className="provider-list catalog-list" aria-label="Catalogs">
          {view.catalogs.map((c) => (
            <li key={c.source} className="provider">
              <div className="provider-main">
                <span className="provider-name">
                  <span className="catalog-source">{c.source}</span>
                  <span className="tag">{KIND[c.kind]}</span>
                </span>
                <Status c={c} />
                {c.problems.length ? (
                  <ul className="catalog-entry-problems">
                    {c.problems.map((p) => (
                      <li key={p}>{p}</li>
                    ))}
                  </ul>
                ) : null}
              </div>
              {c.kind !== "default" ? (
                <div className="provider-actions">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => void remove(c)}
                    aria-label={`Remove the catalog ${c.source}`}
                  >
                    Remove
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="loading" role="status">
          <span className="spinner" aria-hidden="true" /> Reading the catalogs…
        </p>
      )}
      <form className="catalog-add" onSubmit={(e) => void add(e)}>
        <label htmlFor="catalog-add-source" className="visually-hidden">
          Path or URL of a catalog
        </label>
        <input
          id="catalog-add-source"
          className="input"
          placeholder="/path/to/catalog.yaml or https://example.com/catalog.yaml"
          value={source}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setSource(e.target.value)}
        />
        <button type="submit" className="button" disabled={adding || source.trim() === ""}>
          {adding ? "Adding…" : "Add catalog"}
        </button>
      </form>
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
    </Section>
  );
}
