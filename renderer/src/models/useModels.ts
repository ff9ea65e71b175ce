/** The model picker's data: servers and their models, the current one; fresh on settings changes. */
import { useCallback, useEffect, useRef, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent, useReconnected } from "../bridge/hooks.ts";

export type ModelList = CallResponse<"models/list">;

export function useModels(conversationId: string | null): {
  data: ModelList | undefined;
  error: string | null;
  loading: boolean;
  refresh(): void;
} {
  const bridge = useBridge();
  const [data, setData] = useState<ModelList | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const refresh = useCallback(() => {
    const id = ++latest.current;
    setLoading(true);
    bridge.call("models/list", conversationId ? { conversationId } : {}).then(
      (r) => {
        if (id !== latest.current) return;
        setData(r);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (id !== latest.current) return;
        setError(errorMessage(err));
        setLoading(false);
      },
    );
  }, [bridge, conversationId]);
  useEffect(refresh, [refresh]);
  useReconnected(refresh);
  useBridgeEvent("settings/changed", (e) => {
    if (e.section === "providers" || e.section === "models") refresh();
  });
  return { data, error, loading, refresh };
}
