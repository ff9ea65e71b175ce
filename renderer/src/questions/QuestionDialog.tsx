/**
 * The engine's questions other than a chat's tool approvals (plugin permissions, workspace
 * trust, plugin activation, plugin packs), app-wide, one at a time, as a modal dialog: a browser
 * tab on `islet serve` may be the one asked. Same wording as the desktop app's native dialog;
 * pack install and update questions get a richer body (PackConsent.tsx). What a question quotes
 * is shown with its control and invisible characters as markers (ui/Shown.tsx).
 */
import { useEffect, useRef } from "react";
import type { QuestionAnswer, QuestionAsked } from "../../../main/bridge/contract.ts";
import { dialogText } from "../../../main/host/question-text.ts";
import { visibleQuestion } from "../../../main/host/visible-question.ts";
import { Marked } from "../ui/Shown.tsx";
import { PackInstallBody, PackUpdateBody } from "./PackConsent.tsx";
import { useQuestions } from "./useQuestions.ts";
import "./questions.css";

const notApproval = (q: QuestionAsked) => q.question.kind !== "approval";

export function QuestionDialog() {
  const { pending, answer, error } = useQuestions(notApproval);
  const asked = pending[0];
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (asked && !dialog.open) {
      dialog.showModal();
      // showModal() focuses the first focusable element (a pack dialog's scrolling list comes
      // before the buttons): the safe answer has the focus instead.
      dialog.querySelector<HTMLButtonElement>("[data-default]")?.focus();
    }
    if (!asked && dialog.open) dialog.close();
  }, [asked]);
  const text = asked ? dialogText(asked.question) : null;
  const cancel = text?.buttons[0];
  const q = asked ? visibleQuestion(asked.question) : undefined;
  const pack = q?.kind === "pack-install" || q?.kind === "pack-update";
  return (
    <dialog
      ref={ref}
      className={pack ? "question-dialog question-dialog-pack" : "question-dialog"}
      aria-labelledby="question-title"
      aria-describedby="question-message"
      onCancel={(e) => {
        // Escape gives the safe answer (the first button: deny, don't trust).
        e.preventDefault();
        if (asked && cancel)
          answer({
            id: asked.id,
            kind: asked.question.kind,
            answer: cancel.answer,
          } as QuestionAnswer);
      }}
    >
      {asked && text ? (
        <form method="dialog" onSubmit={(e) => e.preventDefault()}>
          {q?.kind === "pack-install" ? (
            <PackInstallBody q={q} />
          ) : q?.kind === "pack-update" ? (
            <PackUpdateBody q={q} />
          ) : (
            <>
              <h2 id="question-title">{text.title}</h2>
              <p id="question-message">
                <Marked text={text.message} />
              </p>
              <pre className="question-detail">
                <Marked text={text.detail} />
              </pre>
            </>
          )}
          {error ? <p className="error-text">{error}</p> : null}
          {pending.length > 1 ? <p className="muted">{pending.length - 1} more waiting</p> : null}
          <div className="question-buttons">
            {text.buttons.map((b, i) => (
              <button
                key={b.answer}
                type="button"
                className={i === 1 ? "button button-primary" : "button"}
                autoFocus={i === 0}
                data-default={i === 0 ? "" : undefined}
                onClick={() =>
                  answer({
                    id: asked.id,
                    kind: asked.question.kind,
                    answer: b.answer,
                  } as QuestionAnswer)
                }
              >
                {b.label}
              </button>
            ))}
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
