/**
 * The button that starts a model download, named for what it will do: Download the first time,
 * Resume when a failed or cancelled download left part of the file (the engine continues from
 * there), Retry when a failed one left nothing. Beside it, how a failure ended, in the app's words.
 */
import type { ReactNode } from "react";
import { RetryIcon } from "../chat/chat-icons.tsx";
import { DownloadIcon } from "../ui/more-icons.tsx";
import { formatBytes } from "./format.ts";
import type { ModelDownload } from "./useLocalModels.ts";

export type DownloadVerb = "Download" | "Resume" | "Retry";

/** What starting the download again does, after `download` ended (or never started). */
export function downloadVerb(download: ModelDownload | undefined): DownloadVerb {
  if (!download || download.state === "running" || download.state === "done") return "Download";
  if (download.partial > 0) return "Resume";
  return download.state === "failed" ? "Retry" : "Download";
}

export function DownloadButton({
  download,
  label,
  onStart,
  small = false,
}: {
  download: ModelDownload | undefined;
  /** What the first Download says ("Download Qwen3 4B (2.5 GB)"); Resume and Retry say their verb. */
  label: ReactNode;
  onStart(): void;
  small?: boolean;
}) {
  const verb = downloadVerb(download);
  const kept =
    download && verb === "Resume"
      ? `${formatBytes(download.partial)}${download.total ? ` of ${formatBytes(download.total)}` : ""} kept`
      : null;
  return (
    <>
      <button
        type="button"
        className={`button button-primary${small ? " button-small" : ""}`}
        onClick={onStart}
        aria-describedby={kept && download ? `kept-${download.name}` : undefined}
      >
        {verb === "Retry" ? <RetryIcon /> : <DownloadIcon />} {verb === "Download" ? label : verb}
      </button>
      {kept && download ? (
        <span className="download-kept" id={`kept-${download.name}`}>
          {download.state === "cancelled" ? "Cancelled" : "Stopped"} · {kept}
        </span>
      ) : null}
    </>
  );
}
