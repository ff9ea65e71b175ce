/** The Settings screen's state: the view from `settings/get`, refreshed on `settings/changed`. */
import { useCallback, useEffect, useState } from "react";
import type { CallName } from "../../../main/bridge/names.ts";
import type { CallRequest, CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeQuery } from "../bridge/hooks.ts";

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
  const settings = useBridgeQuery("settings/get", undefined, { refreshOn: ["settings/changed"] });
  const { adopt } = settings;
  const change = useCallback(
    async <N extends Change>(name: N, request: CallRequest<N>): Promise<string | null> => {
      try {
        const call = bridge.call as (n: N, r: CallRequest<N>) => Promise<SettingsView>;
        await adopt(call(name, request));
        return null;
      } catch (err) {
        return errorMessage(err);
      }
    },
    [bridge, adopt],
  );
  return { view: settings.data, loadError: settings.error, change };
}

/** A control's value shown at once when changed, then whatever the engine saved. */
export function useShown<T>(saved: T): [T, (value: T) => void] {
  const [shown, setShown] = useState(saved);
  useEffect(() => setShown(saved), [saved]);
  return [shown, setShown];
}
