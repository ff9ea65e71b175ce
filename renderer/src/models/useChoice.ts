/**
 * The data behind a picker: a list loaded from the bridge (again on reconnect and when plugins
 * or files change, `plugins/changed`), and choosing one of it, whose failure is shown as one line.
 */
import { useCallback, useEffect, useState } from "react";
import { useBridge } from "../bridge/context.tsx";
import type { LiveBridge } from "../bridge/index.ts";
import { errorMessage, useBridgeEvent, useReconnected } from "../bridge/hooks.ts";

export interface Choice<T> {
  data: T | undefined;
  failure: string | null;
  load: () => void;
  choose: (value: string) => void;
}

export function useChoice<T>(
  /** Stable (module-level or useCallback): a new one loads again. */
  list: (bridge: LiveBridge) => Promise<T>,
  select: (bridge: LiveBridge, value: string) => Promise<unknown>,
  /** Problems the listing itself reports (e.g. a style file that could not be read). */
  problems: (data: T) => string[] = noProblems,
): Choice<T> {
  const bridge = useBridge();
  const [data, setData] = useState<T | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const fetch = useCallback(
    (keepFailure: boolean) => {
      list(bridge).then(
        (r) => {
          setData(r);
          if (keepFailure) return;
          const found = problems(r);
          setFailure(found.length > 0 ? found.join("\n") : null);
        },
        (err: unknown) => setFailure(errorMessage(err)),
      );
    },
    [bridge, list, problems],
  );
  const load = useCallback(() => fetch(false), [fetch]);
  useEffect(load, [load]);
  useReconnected(load);
  useBridgeEvent("plugins/changed", load);

  const choose = (value: string) => {
    select(bridge, value).then(
      () => fetch(false),
      (err: unknown) => {
        setFailure(errorMessage(err));
        fetch(true);
      },
    );
  };
  return { data, failure, load, choose };
}

function noProblems(): string[] {
  return [];
}
