/**
 * The Models screen: the embedded runtime's downloaded models (size, architecture, quantization,
 * context, whether it fits this machine's memory, which one new chats use, Delete) and the
 * catalog of recommended models with Download, progress, Cancel, Resume; adding a model file
 * from disk or a download from a URL.
 */
import { useState } from "react";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";
import { Callout } from "../ui/Callout.tsx";
import { TrashIcon } from "../ui/more-icons.tsx";
import { AddModel, UrlDownloads } from "./AddModel.tsx";
import { DownloadButton } from "./DownloadButton.tsx";
import { DownloadProgress } from "./DownloadProgress.tsx";
import { FIT_DETAIL, FIT_LABEL, formatBytes, formatParameters } from "./format.ts";
import { useLocalModels, type LocalModels } from "./useLocalModels.ts";
import "./models.css";

type Downloaded = LocalModels["models"][number];
type Offered = LocalModels["catalog"][number];

function Fit({ fit, needed }: { fit: Offered["fit"]; needed: number }) {
  return (
    <span
      className={`fit fit-${fit}`}
      title={`Needs about ${formatBytes(needed)} of memory: ${FIT_DETAIL[fit]}`}
    >
      {FIT_LABEL[fit]} · {formatBytes(needed)}
      <span className="visually-hidden"> of memory needed</span>
    </span>
  );
}

function DownloadedCard({ model, onError }: { model: Downloaded; onError(m: string): void }) {
  const bridge = useBridge();
  const [confirming, setConfirming] = useState(false);
  const remove = () =>
    bridge.call("models/delete", { name: model.name }).catch((err: unknown) => {
      onError(errorMessage(err));
    });
  const facts = [
    model.architecture,
    formatParameters(model.parameters),
    model.quantization,
    model.contextLength ? `${model.contextLength.toLocaleString("en")} tokens context` : null,
  ].filter(Boolean);
  return (
    <li className="model-card">
      <div className="model-head">
        <h3 className="model-name">{model.name}</h3>
        {model.inUse ? <span className="badge badge-active">In use</span> : null}
        <span className="model-size">{formatBytes(model.size)}</span>
      </div>
      {model.error ? (
        <p className="model-error">{model.error}</p>
      ) : (
        <p className="model-facts">{facts.join(" · ")}</p>
      )}
      <div className="model-foot">
        {model.fit && model.memoryNeeded ? (
          <Fit fit={model.fit} needed={model.memoryNeeded} />
        ) : (
          <span />
        )}
        {confirming ? (
          <span className="model-confirm" role="group" aria-label={`Delete ${model.name}?`}>
            <span>Delete {model.name}?</span>
            <button
              type="button"
              className="button button-small button-danger"
              onClick={() => void remove()}
            >
              Delete
            </button>
            <button
              type="button"
              className="button button-small"
              onClick={() => setConfirming(false)}
              autoFocus
            >
              Keep
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="button button-small"
            aria-label={`Delete ${model.name}`}
            onClick={() => setConfirming(true)}
          >
            <TrashIcon /> Delete
          </button>
        )}
      </div>
    </li>
  );
}

function CatalogCard({
  model,
  recommended,
  download,
  onError,
}: {
  model: Offered;
  recommended: boolean;
  download: ReturnType<typeof useLocalModels>["downloads"][string] | undefined;
  onError(m: string): void;
}) {
  const bridge = useBridge();
  const start = () =>
    bridge.call("models/download", { name: model.name }).catch((err: unknown) => {
      onError(errorMessage(err));
    });
  return (
    <li className="model-card">
      <div className="model-head">
        <h3 className="model-name">{model.title}</h3>
        {recommended ? <span className="badge badge-recommended">Recommended</span> : null}
        <span className="model-size">{formatBytes(model.size)}</span>
      </div>
      <p className="model-desc">{model.description}</p>
      <p className="model-facts">
        {model.parameters} parameters · {model.quantization} · {model.license}
      </p>
      {download?.state === "running" ? (
        <DownloadProgress download={download} label={model.title} />
      ) : (
        <div className="model-foot">
          <Fit fit={model.fit} needed={model.memoryNeeded} />
          {model.downloaded ? (
            <span className="model-done">Downloaded</span>
          ) : (
            <span className="model-actions">
              <DownloadButton
                download={download}
                label="Download"
                onStart={() => void start()}
                small
              />
            </span>
          )}
        </div>
      )}
      {download?.state === "failed" && download.error ? (
        <p className="model-error" role="alert">
          {download.error}
        </p>
      ) : null}
    </li>
  );
}

export function ModelsView() {
  const local = useLocalModels();
  const [failure, setFailure] = useState<string | null>(null);
  const data = local.data;
  return (
    <section className="view" aria-labelledby="models-title">
      <header className="view-header">
        <div>
          <h1 id="models-title">Models</h1>
          <p className="view-subtitle">
            Built-in models run on this computer, offline
            {data ? ` · ${formatBytes(data.totalMemory)} of memory` : ""}
          </p>
        </div>
      </header>
      <div className="view-body models-view">
        <AddModel />
        {local.error && !data ? (
          <Callout tone="bad" title="The models could not be listed" role="alert">
            <p>{local.error}</p>
          </Callout>
        ) : null}
        {failure ? <Callout tone="bad" title={failure} role="alert" /> : null}
        {!data ? (
          <p className="loading" role="status">
            <span className="spinner" aria-hidden="true" /> Reading the models folder…
          </p>
        ) : (
          <>
            <section aria-labelledby="models-downloaded">
              <h2 id="models-downloaded" className="models-heading">
                Downloaded
              </h2>
              {data.models.length === 0 ? (
                <p className="muted models-empty">
                  None yet. Download one below; it is saved in{" "}
                  <span className="path">{data.dir}</span>.
                </p>
              ) : (
                <ul className="model-grid">
                  {data.models.map((m) => (
                    <DownloadedCard key={m.name} model={m} onError={setFailure} />
                  ))}
                </ul>
              )}
            </section>
            <UrlDownloads
              downloads={Object.values(local.downloads).filter(
                (d) => d.state !== "done" && !data.catalog.some((c) => c.name === d.name),
              )}
            />
            <section aria-labelledby="models-catalog">
              <h2 id="models-catalog" className="models-heading">
                Catalog
              </h2>
              {data.catalogError ? (
                <Callout tone="bad" title="The catalog could not be read">
                  <p>{data.catalogError}</p>
                </Callout>
              ) : null}
              <ul className="model-grid">
                {data.catalog.map((m) => (
                  <CatalogCard
                    key={m.name}
                    model={m}
                    recommended={m.name === data.recommended}
                    download={local.downloads[m.name]}
                    onError={setFailure}
                  />
                ))}
              </ul>
            </section>
          </>
        )}
      </div>
    </section>
  );
}
