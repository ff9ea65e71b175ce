/** Brings an errored plugin back in a fresh sandbox (`plugins/restart`), and says if it could not. */
import { useState } from "react";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";
import { ReloadIcon } from "../ui/icons.tsx";

export function RestartButton({ name }: { name: string }) {
  const bridge = useBridge();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const restart = () => {
    setRunning(true);
    setError(null);
    bridge
      .call("plugins/restart", { name })
      .then(
        (report) => {
          if (!report.ok) setError(report.error ?? "the plugin did not start");
        },
        (e: unknown) => setError(errorMessage(e)),
      )
      .finally(() => setRunning(false));
  };
  return (
    <div className="restart">
      <button
        type="button"
        className="button"
        onClick={restart}
        disabled={running}
        aria-label={`Restart ${name}`}
      >
        <ReloadIcon />
        {running ? "Restarting…" : "Restart"}
      </button>
      {error ? (
        <p className="error-text" role="alert">
          Restart failed: {error}
        </p>
      ) : null}
    </div>
  );
}
