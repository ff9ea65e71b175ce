/** The sessions list for a search, kept fresh on `sessions/changed` and after a reconnect. */
import { useCallback, useEffect, useRef, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";

type SessionItem = CallResponse<"sessions/list">["sessions"][number];
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent, useReconnected } from "../bridge/hooks.ts";

export interface Sessions {
  items: SessionItem[] | undefined;
  error: string | null;
  refresh(): void;
}

export function useSessions(query: string): Sessions {
  const bridge = useBridge();
  const [items, setItems] = useState<SessionItem[] | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  const refresh = useCallback(() => {
    const id = ++latest.current;
    bridge.call("sessions/list", query.trim() ? { query: query.trim() } : {}).then(
      (r) => {
        if (id !== latest.current) return;
        setItems(r.sessions);
        setError(null);
      },
      (err: unknown) => {
        if (id === latest.current) setError(errorMessage(err));
      },
    );
  }, [bridge, query]);
  useEffect(() => {
    // Typing: wait a moment so each keystroke does not search every session.
    const t = setTimeout(refresh, query ? 180 : 0);
    return () => clearTimeout(t);
  }, [refresh, query]);
  useBridgeEvent("sessions/changed", refresh);
  useReconnected(refresh);
  return { items, error, refresh };
}
