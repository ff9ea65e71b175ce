/**
 * What a Write or Patch would do, in its approval: a new file as its content, an existing one as
 * a diff against the file on disk (Monaco's, loaded on demand), the whole new content one click
 * away, and a sentence where the engine could not send the text (binary, too large, unreadable)
 * or the Patch will not apply.
 */
import { Component, lazy, Suspense, useState, type ReactNode } from "react";
import type { FileChange } from "../../../main/host/questions.ts";
import { formatBytes } from "../models/format.ts";
import { Shown } from "../ui/Shown.tsx";

const ChangeDiff = lazy(() => import("./ChangeDiff.tsx"));

const PREVIEW_LINES = 40;

/** If the diff editor cannot load, the change is still there in plain text below it. */
class DiffBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? (
      <p className="change-note">The comparison could not be shown; see the new content below.</p>
    ) : (
      this.props.children
    );
  }
}

function noteText(change: FileChange): string | null {
  const size = change.size !== undefined ? ` (${formatBytes(change.size)})` : "";
  switch (change.note) {
    case "binary":
      return `${change.path} is a binary file${size}: it cannot be compared here.`;
    case "too-large":
      return `${change.path} is too large to compare here${size}.`;
    case "unreadable":
      return `${change.path} cannot be read to compare with.`;
    case "not-found-in-file":
      return "The text to replace is not in the file exactly once: the call will fail and change nothing.";
    default:
      return null;
  }
}

function FullText({ text, label }: { text: string; label: string }) {
  const lines = text.split("\n");
  const [all, setAll] = useState(lines.length <= PREVIEW_LINES);
  return (
    <>
      <pre className="tool-pre change-text" aria-label={label} tabIndex={0}>
        <Shown text={all ? text : `${lines.slice(0, PREVIEW_LINES).join("\n")}\n…`} lines />
      </pre>
      {lines.length > PREVIEW_LINES ? (
        <button type="button" className="link-button" onClick={() => setAll(!all)}>
          {all ? "Show less" : `Show all ${lines.length.toLocaleString("en")} lines`}
        </button>
      ) : null}
    </>
  );
}

export function ChangePreview({ change, content }: { change: FileChange; content: string | null }) {
  const [full, setFull] = useState(false);
  const note = noteText(change);
  const after = change.after ?? content;
  if (change.before === null && !change.note && after !== null)
    return (
      <div className="change">
        <p className="change-title">
          New file{" "}
          <span className="path">
            <Shown text={change.path} />
          </span>
        </p>
        <FullText text={after} label={`Content of ${change.path}`} />
      </div>
    );
  return (
    <div className="change">
      <p className="change-title">
        Changes to{" "}
        <span className="path">
          <Shown text={change.path} />
        </span>
      </p>
      {note ? <p className="change-note">{note}</p> : null}
      {change.before !== null && change.after !== null ? (
        <DiffBoundary>
          <Suspense fallback={<p className="change-note">Loading the comparison…</p>}>
            <ChangeDiff path={change.path} before={change.before} after={change.after} />
          </Suspense>
        </DiffBoundary>
      ) : null}
      {after !== null ? (
        <>
          <button
            type="button"
            className="link-button"
            aria-expanded={full}
            onClick={() => setFull(!full)}
          >
            {full ? "Hide the full new content" : "Show the full new content"}
          </button>
          {full ? <FullText text={after} label={`New content of ${change.path}`} /> : null}
        </>
      ) : null}
    </div>
  );
}
