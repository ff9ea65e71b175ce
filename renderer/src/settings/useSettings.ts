/** The Settings screen's state: the view from `settings/get`, refreshed on `settings/changed`. */
import { useCallback, useEffect, useRef, useState } from "react";
import type { CallName } from "../../../main/bridge/names.ts";
import type { CallRequest, CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent, useReconnected } from "../bridge/hooks.ts";

export type SettingsView = CallResponse<"settings/get">;
export type ProviderView = SettingsView["providers"][number];

type Change = "settings/set" | "settings/saveProvider" | "settings/removeProvider";

export interface SettingsState {
  view: SettingsView | undefined;
  loadError: string | null;
  /** Sends a change; resolves with null, or the one-line reason it was refused. */
  change<N extends Change & CallName>(name: N, request: CallRequest<N>): Promise<string | null>;
}

export function useSettings(): SettingsState {
  const bridge = useBridge();
  const [view, setView] = useState<SettingsView | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  const latest = useRef(0);
  const load = useCallback(() => {
    const id = ++latest.current;
    bridge.call("settings/get").then(
      (v) => {
        if (id === latest.current) {
          setView(v);
          setLoadError(null);
        }
      },
      (err: unknown) => {
        if (id === latest.current) setLoadError(errorMessage(err));
      },
    );
  }, [bridge]);
  useEffect(load, [load]);
  useReconnected(load);
  useBridgeEvent("settings/changed", load);

  const change = useCallback(
    async <N extends Change>(name: N, request: CallRequest<N>): Promise<string | null> => {
      const id = ++latest.current;
      try {
        const call = bridge.call as (n: N, r: CallRequest<N>) => Promise<SettingsView>;
        const next = await call(name, request);
        if (id === latest.current) setView(next);
        return null;
      } catch (err) {
        return errorMessage(err);
      }
    },
    [bridge],
  );
  return { view, loadError, change };
}

/** A control's value shown at once when changed, then whatever the engine saved. */
export function useShown<T>(saved: T): [T, (value: T) => void] {
  const [shown, setShown] = useState(saved);
  useEffect(() => setShown(saved), [saved]);
  return [shown, setShown];
}
