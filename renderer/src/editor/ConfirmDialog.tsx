/**
 * The unsaved-changes prompt: a modal <dialog> (focus trapped, Escape cancels) asked through a
 * promise, so a caller can `await confirm(...)` before switching plugin, file or view.
 */
import { useCallback, useEffect, useRef, useState } from "react";

export type Choice = "save" | "discard" | "cancel";

interface Pending {
  title: string;
  body: string;
  resolve(choice: Choice): void;
}

export function useUnsavedPrompt() {
  const [pending, setPending] = useState<Pending | null>(null);
  const ask = useCallback(
    (title: string, body: string) =>
      new Promise<Choice>((resolve) => setPending({ title, body, resolve })),
    [],
  );
  const answer = (choice: Choice) => {
    pending?.resolve(choice);
    setPending(null);
  };
  const dialog = pending ? (
    <UnsavedDialog title={pending.title} body={pending.body} onAnswer={answer} />
  ) : null;
  return { ask, dialog };
}

function UnsavedDialog({
  title,
  body,
  onAnswer,
}: {
  title: string;
  body: string;
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
        <button type="button" className="button button-danger" onClick={() => onAnswer("discard")}>
          Discard changes
        </button>
        <button
          type="button"
          className="button button-primary"
          autoFocus
          onClick={() => onAnswer("save")}
        >
          Save
        </button>
      </div>
    </dialog>
  );
}
