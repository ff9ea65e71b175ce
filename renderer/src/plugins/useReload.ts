/** The Reload button's call, and what it answered (or why it failed). */
import { useCallback, useRef, useState } from "react";
import type { ReloadResult } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";

export interface Reload {
  running: boolean;
  /** True while a reload started here is under way (its plugins/changed echo is ours). */
  readonly inFlight: { current: boolean };
  error: string | null;
  run(onDone: (reports: ReloadResult[]) => void): void;
}

export function useReload(): Reload {
  const bridge = useBridge();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false);
  const run = useCallback(
    (onDone: (reports: ReloadResult[]) => void) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setRunning(true);
      setError(null);
      bridge
        .call("plugins/reload")
        .then(
          ({ reports }) => onDone(reports),
          (e: unknown) => setError(errorMessage(e)),
        )
        .finally(() => {
          inFlight.current = false;
          setRunning(false);
        });
    },
    [bridge],
  );
  return { running, inFlight, error, run };
}
