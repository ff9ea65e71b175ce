/** One saved session in the list: open it, rename it inline, export it, or delete it (confirmed). */
import { useLayoutEffect, useRef, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";

type SessionItem = CallResponse<"sessions/list">["sessions"][number];
import { DownloadIcon, PencilIcon, TrashIcon } from "../ui/more-icons.tsx";
import { RowMenu } from "./RowMenu.tsx";
import { relativeTime } from "./when.ts";

export interface RowActions {
  open(id: string): void;
  rename(id: string, title: string): Promise<void>;
  export(id: string, format: "markdown" | "json"): void;
  remove(id: string): Promise<void>;
}

export type RowMode = "view" | "rename" | "confirm";

export function SessionRow({
  session,
  active,
  tabbable,
  actions,
  mode,
  setMode,
}: {
  session: SessionItem;
  active: boolean;
  /** The row holding the list's one Tab stop. */
  tabbable: boolean;
  actions: RowActions;
  /** Held by the list, so its shortcuts (F2, Delete) can start them. */
  mode: RowMode;
  setMode(mode: RowMode): void;
}) {
  const [draft, setDraft] = useState(session.title);
  const input = useRef<HTMLInputElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);
  const title = session.title || "Untitled chat";

  // Before the browser paints or handles the next key: what is typed right after F2 lands in the
  // name field, wherever in the row the focus was.
  useLayoutEffect(() => {
    if (mode === "rename") {
      setDraft(session.title);
      input.current?.focus();
      input.current?.select();
    }
    if (mode === "confirm") cancelButton.current?.focus();
  }, [mode, session.title]);

  const back = () => {
    setMode("view");
    requestAnimationFrame(() => openButton.current?.focus());
  };

  const save = async () => {
    const next = draft.trim();
    if (next && next !== session.title) await actions.rename(session.id, next);
    back();
  };

  if (mode === "rename")
    return (
      <li className="session session-editing" data-session-id={session.id}>
        <input
          ref={input}
          className="session-rename"
          aria-label={`New name for ${title}`}
          value={draft}
          maxLength={200}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => void save()}
          onKeyDown={(e) => {
            if (e.key === "Enter") void save();
            if (e.key === "Escape") {
              e.stopPropagation();
              back();
            }
          }}
        />
      </li>
    );

  if (mode === "confirm")
    return (
      <li
        className="session session-confirm"
        role="group"
        aria-label={`Delete ${title}?`}
        data-session-id={session.id}
      >
        <p>
          Delete <strong>{title}</strong>? This cannot be undone.
        </p>
        <div className="session-confirm-actions">
          <button ref={cancelButton} type="button" className="button button-small" onClick={back}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-small button-danger"
            onClick={() => void actions.remove(session.id)}
          >
            Delete
          </button>
        </div>
      </li>
    );

  return (
    <li className={`session${active ? " session-active" : ""}`} data-session-id={session.id}>
      <button
        ref={openButton}
        type="button"
        className="session-open"
        tabIndex={tabbable ? 0 : -1}
        data-session-id={session.id}
        aria-current={active ? "page" : undefined}
        onClick={() => actions.open(session.id)}
      >
        <span className="session-title">{title}</span>
        {session.match ? <span className="session-match">{session.match}</span> : null}
        <span className="session-meta">
          <time dateTime={session.updatedAt} title={new Date(session.updatedAt).toLocaleString()}>
            {relativeTime(session.updatedAt)}
          </time>
          {session.model ? <span className="session-model"> · {session.model}</span> : null}
        </span>
      </button>
      <RowMenu
        label={`Actions for ${title}`}
        tabIndex={-1}
        items={[
          { label: "Rename", icon: <PencilIcon />, run: () => setMode("rename") },
          {
            label: "Export as Markdown",
            icon: <DownloadIcon />,
            run: () => actions.export(session.id, "markdown"),
          },
          {
            label: "Export as JSON",
            icon: <DownloadIcon />,
            run: () => actions.export(session.id, "json"),
          },
          { label: "Delete…", icon: <TrashIcon />, danger: true, run: () => setMode("confirm") },
        ]}
      />
    </li>
  );
}
