/**
 * The unsaved-changes prompt: a modal <dialog> (focus trapped, Escape cancels) asked through a
 * promise, so a caller can `await confirm(...)` before switching plugin, file or view.
 */
import { useCallback, useEffect, useRef, useState } from "react";

export type Choice = "save" | "discard" | "cancel";

/** Button labels; `save: null` leaves only Cancel and the discard (destructive) choice. */
export interface Labels {
  save: string | null;
  discard: string;
}

const UNSAVED: Labels = { save: "Save", discard: "Discard changes" };

interface Pending {
  title: string;
  body: string;
  labels: Labels;
  resolve(choice: Choice): void;
}

export function useUnsavedPrompt() {
  const [pending, setPending] = useState<Pending | null>(null);
  const ask = useCallback(
    (title: string, body: string, labels: Labels = UNSAVED) =>
      new Promise<Choice>((resolve) => setPending({ title, body, labels, resolve })),
    [],
  );
  const answer = (choice: Choice) => {
    pending?.resolve(choice);
    setPending(null);
  };
  const dialog = pending ? (
    <UnsavedDialog
      title={pending.title}
      body={pending.body}
      labels={pending.labels}
      onAnswer={answer}
    />
  ) : null;
  return { ask, dialog };
}

function UnsavedDialog({
  title,
  body,
  labels,
  onAnswer,
}: {
  title: string;
  body: string;
  labels: Labels;
  onAnswer(choice: Choice): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby="unsaved-title"
      onCancel={(e) => {
        e.preventDefault();
        onAnswer("cancel");
      }}
    >
      <h2 id="unsaved-title" className="modal-title">
        {title}
      </h2>
      <p className="modal-body">{body}</p>
      <div className="modal-actions">
        <button type="button" className="button" onClick={() => onAnswer("cancel")}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-danger"
          autoFocus={labels.save === null}
          onClick={() => onAnswer("discard")}
        >
          {labels.discard}
        </button>
        {labels.save !== null ? (
          <button
            type="button"
            className="button button-primary"
            autoFocus
            onClick={() => onAnswer("save")}
          >
            {labels.save}
          </button>
        ) : null}
      </div>
    </dialog>
  );
}
