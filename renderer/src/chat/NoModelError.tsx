/**
 * A turn that failed because there is no model to chat with: the remedy where the error is — the
 * built-in model's Download (with its progress), another model from the Models view, and Send
 * again once there is one. The engine's own line names a CLI command; the app never shows it.
 */
import { RecommendedModel } from "../models/RecommendedModel.tsx";
import { RetryIcon } from "./chat-icons.tsx";

export function NoModelError({
  onRetry,
  onOpenModels,
}: {
  onRetry: (() => void) | null;
  onOpenModels: (() => void) | undefined;
}) {
  return (
    <div className="turn-error turn-no-model" role="alert">
      <p>
        <strong>There is no model to chat with yet.</strong> Download the built-in model to chat
        offline, or choose another model; then send again.
      </p>
      <RecommendedModel compact />
      <div className="turn-error-actions">
        {onOpenModels ? (
          <button type="button" className="button" onClick={onOpenModels}>
            Choose another model…
          </button>
        ) : null}
        {onRetry ? (
          <button type="button" className="button" onClick={onRetry}>
            <RetryIcon /> Send again
          </button>
        ) : null}
      </div>
    </div>
  );
}
