/** The sessions list for a search, kept fresh on `sessions/changed` and after a reconnect. */
import { useEffect, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridgeQuery } from "../bridge/hooks.ts";

type SessionItem = CallResponse<"sessions/list">["sessions"][number];

export interface Sessions {
  items: SessionItem[] | undefined;
  error: string | null;
  refresh(): void;
}

export function useSessions(query: string): Sessions {
  // Typing: wait a moment so each keystroke does not search every session.
  const [search, setSearch] = useState(query);
  useEffect(() => {
    const t = setTimeout(() => setSearch(query), query ? 180 : 0);
    return () => clearTimeout(t);
  }, [query]);
  const list = useBridgeQuery("sessions/list", search.trim() ? { query: search.trim() } : {}, {
    refreshOn: ["sessions/changed"],
  });
  return { items: list.data?.sessions, error: list.error, refresh: list.refresh };
}
