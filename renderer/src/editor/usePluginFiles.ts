/** One plugin's file list and current problems, fetched again after every reload. */
import { useCallback, useEffect, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent, useReconnected } from "../bridge/hooks.ts";

export type PluginFiles = CallResponse<"editor/files">;

export function usePluginFiles(plugin: string | null) {
  const bridge = useBridge();
  const [data, setData] = useState<PluginFiles | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(() => {
    if (!plugin) {
      setData(null);
      return;
    }
    bridge.call("editor/files", { name: plugin }).then(
      (d) => {
        setData(d.name === plugin ? d : null);
        setError(null);
      },
      (e: unknown) => setError(errorMessage(e)),
    );
  }, [bridge, plugin]);

  useEffect(() => {
    setData(null);
    refresh();
  }, [refresh]);
  useBridgeEvent("plugins/changed", refresh);
  useReconnected(refresh);
  return { data, error, refresh };
}
