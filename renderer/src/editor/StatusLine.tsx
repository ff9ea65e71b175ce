/** The editor's status bar: the last save's reload ("reloaded in N ms" or why it failed). */
export interface Status {
  tone: "ok" | "bad" | "busy";
  text: string;
}

export function StatusLine({ status, dirty }: { status: Status | null; dirty: number }) {
  return (
    <div className="status-line">
      <p role="status" aria-live="polite" className={status ? `status-${status.tone}` : undefined}>
        {status?.tone === "busy" ? <span className="spinner" aria-hidden="true" /> : null}
        {status?.text ?? "Ready"}
      </p>
      <span className="status-right">
        {dirty > 0 ? `${dirty} unsaved ${dirty === 1 ? "file" : "files"} · ` : ""}Ctrl+S saves
      </span>
    </div>
  );
}
