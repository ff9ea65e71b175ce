/**
 * The confirmation before trusting the workspace or stopping: exactly what changes (the lines of
 * what its `.islet/` asks for). A modal <dialog>: Cancel is the default and focused button, and
 * Escape cancels. The lines name what the folder holds: their hidden characters are shown.
 */
import { useEffect, useRef } from "react";
import { Shown } from "../ui/Shown.tsx";
import "../questions/questions.css"; // the dialog frame the questions use

export function TrustDialog({
  folder,
  trusting,
  asks,
  onConfirm,
  onCancel,
}: {
  folder: string;
  /** True: "Trust this folder"; false: "Stop trusting". */
  trusting: boolean;
  asks: string[];
  onConfirm(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    ref.current?.showModal();
    // showModal() would focus the first control; the safe choice is the one focused.
    cancelRef.current?.focus();
  }, []);
  return (
    <dialog
      ref={ref}
      className="question-dialog trust-dialog"
      aria-labelledby="trust-dialog-title"
      aria-describedby="trust-dialog-message"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="trust-dialog-title">
        {trusting ? "Trust this folder?" : "Stop trusting this folder?"}
      </h2>
      <p className="path trust-dialog-folder">
        <Shown text={folder} />
      </p>
      <p id="trust-dialog-message">
        {trusting
          ? "Trusting it lets Islet use:"
          : "Islet will hold these back again, starting now:"}
      </p>
      {asks.length > 0 ? (
        <ul
          className="trust-dialog-list"
          aria-label={trusting ? "What trusting allows" : "What is held back"}
        >
          {asks.map((line) => (
            <li key={line}>
              <Shown text={line} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="settings-hint">Its .islet/ asks for nothing more right now.</p>
      )}
      <p className="settings-hint">
        Commands, skills, agents, shell hooks and MCP servers change now; plugin permissions, unsafe
        mode and model providers at the next start.
      </p>
      {trusting ? (
        <p className="settings-hint">
          Only trust a folder whose .islet/ you have read or written yourself: commands, hooks and
          MCP servers there run programs on this computer.
        </p>
      ) : null}
      <div className="trust-dialog-buttons">
        <button ref={cancelRef} type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className={trusting ? "button button-danger" : "button"}
          onClick={onConfirm}
        >
          {trusting ? "Trust this folder" : "Stop trusting"}
        </button>
      </div>
    </dialog>
  );
}
