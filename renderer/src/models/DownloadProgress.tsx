/** A download under way: a progress bar, bytes of the total, the rate and the time left, Cancel. */
import { useBridge } from "../bridge/context.tsx";
import { formatBytes, formatDuration } from "./format.ts";
import type { ModelDownload } from "./useLocalModels.ts";

export function DownloadProgress({ download, label }: { download: ModelDownload; label: string }) {
  const bridge = useBridge();
  const { received, total, bytesPerSecond, secondsLeft } = download;
  const pct = total ? Math.min(100, Math.floor((received / total) * 100)) : null;
  const left = formatDuration(secondsLeft);
  return (
    <div className="download">
      <div
        className="download-bar"
        role="progressbar"
        aria-label={`Downloading ${label}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct ?? undefined}
        aria-valuetext={pct === null ? formatBytes(received) : `${pct}%`}
      >
        <span style={{ width: `${pct ?? 5}%` }} />
      </div>
      <div className="download-line">
        <span className="download-figures">
          {formatBytes(received)}
          {total ? ` of ${formatBytes(total)}` : ""}
          {bytesPerSecond > 0 ? ` · ${formatBytes(bytesPerSecond)}/s` : ""}
          {left ? ` · ${left} left` : ""}
        </span>
        <button
          type="button"
          className="button button-small"
          onClick={() => void bridge.call("models/cancelDownload", { name: download.name })}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
