/** The editor's status bar: the last save's reload ("reloaded in N ms" or why it failed). */
import type { SaveOutcome } from "./useOpenFiles.ts";

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

/** What a save's reload report says, in one line. */
export function statusOf(outcome: SaveOutcome): Status {
  const r = outcome.report;
  if (!r) return { tone: "ok", text: "Saved" };
  if (r.ok) return { tone: "ok", text: `Saved · reloaded in ${Math.round(r.ms)} ms` };
  const first = outcome.problems[0];
  const where = first?.file ? `${first.file}${first.line ? `:${first.line}` : ""}: ` : "";
  return {
    tone: "bad",
    text: `Saved, but it did not load — the previous version keeps serving. ${where}${first?.title ?? r.error ?? ""}`,
  };
}
