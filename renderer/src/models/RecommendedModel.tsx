/**
 * The first-run offer: the catalog model that fits this machine, its size and a Download
 * button; while it downloads, its progress; once done the model picker lists it and a chat can
 * start. Used by the chat's empty state and the model picker's "No model" note.
 */
import { useState } from "react";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";
import { DownloadButton } from "./DownloadButton.tsx";
import { DownloadProgress } from "./DownloadProgress.tsx";
import { formatBytes } from "./format.ts";
import { useLocalModels } from "./useLocalModels.ts";
import "./models.css";

export function RecommendedModel({ compact = false }: { compact?: boolean }) {
  const bridge = useBridge();
  const local = useLocalModels();
  const [failure, setFailure] = useState<string | null>(null);
  const data = local.data;
  const model = data?.catalog.find((c) => c.name === data.recommended);
  if (!data || !model || model.downloaded) return null;
  const download = local.downloads[model.name];
  const running = download?.state === "running";
  const start = () => {
    setFailure(null);
    bridge.call("models/download", { name: model.name }).catch((err: unknown) => {
      setFailure(errorMessage(err));
    });
  };
  const error = failure ?? (download?.state === "failed" ? download.error : null);
  return (
    <div
      className={`offer${compact ? " offer-compact" : ""}`}
      role="region"
      aria-label="Chat offline with a built-in model"
    >
      <p className="offer-title">Chat offline, with nothing else to install</p>
      <p className="offer-text">
        <strong>{model.title}</strong> runs on this computer ({formatBytes(model.size)} download,{" "}
        {model.license}). {model.description}
      </p>
      {running ? (
        <DownloadProgress download={download} label={model.title} />
      ) : (
        <div className="offer-actions">
          <DownloadButton
            download={download}
            label={`Download ${model.title} (${formatBytes(model.size)})`}
            onStart={start}
          />
        </div>
      )}
      {error ? (
        <p className="offer-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
