/** A card's running operation (phase, message, a progress bar) or how it ended, in place. */
import { Callout } from "../ui/Callout.tsx";
import { CloseIcon } from "../ui/icons.tsx";
import type { Operation, Phase } from "./usePackOperations.ts";

const PHASE: Record<Phase, string> = {
  resolving: "Resolving",
  cloning: "Cloning",
  fetching: "Fetching",
  validating: "Checking the plugins",
  vendoring: "Installing dependencies",
  building: "Building",
  consent: "Waiting for your answer",
  installing: "Installing",
  removing: "Removing",
  done: "Finishing",
};

const VERB = { install: "Install", update: "Update", remove: "Remove" } as const;

export function OperationStatus({
  op,
  name,
  onDismiss,
}: {
  op: Operation | undefined;
  name: string;
  onDismiss(): void;
}) {
  if (!op) return null;
  if (op.running) {
    const label = op.phase ? PHASE[op.phase] : "Starting";
    return (
      <div className="pack-progress" role="status">
        <div className="pack-progress-text">
          <span className="spinner" aria-hidden="true" />
          <span className="pack-progress-phase">{label}</span>
          {op.message ? <span className="pack-progress-message">{op.message}</span> : null}
        </div>
        <progress
          aria-label={`${VERB[op.kind]} ${name}: ${label}`}
          max={1}
          {...(op.fraction !== null ? { value: op.fraction } : {})}
        />
      </div>
    );
  }
  if (op.error)
    return (
      <div className="pack-outcome">
        <Callout tone="bad" title={`${VERB[op.kind]} failed`} role="alert">
          <p className="pack-error">{op.error}</p>
        </Callout>
        <button
          type="button"
          className="icon-button pack-dismiss"
          aria-label={`Dismiss the ${op.kind} error`}
          onClick={onDismiss}
        >
          <CloseIcon />
        </button>
      </div>
    );
  if (op.note)
    return (
      <p className={`pack-note pack-note-${op.note.tone}`} role="status">
        {op.note.text}
      </p>
    );
  return null;
}
