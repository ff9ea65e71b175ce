/**
 * The Catalog tab's data: `catalog/list`, again whenever the catalogs or the installed packs
 * change (`catalog/changed`, from any window) and after a reconnect. `refresh(true)` fetches URL
 * catalogs anew.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent, useReconnected } from "../bridge/hooks.ts";

export type CatalogView = CallResponse<"catalog/list">;
export type CatalogPack = CatalogView["packs"][number];
export type InstalledPack = CatalogView["others"][number];
export type CatalogStatus = CatalogView["catalogs"][number];

export interface Catalog {
  view: CatalogView | undefined;
  error: string | null;
  loading: boolean;
  refresh(remote?: boolean): void;
}

export function useCatalog(): Catalog {
  const bridge = useBridge();
  const [view, setView] = useState<CatalogView | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const refresh = useCallback(
    (remote = false) => {
      const id = ++latest.current;
      setLoading(true);
      bridge.call("catalog/list", remote ? { refresh: true } : undefined).then(
        (next) => {
          if (id !== latest.current) return;
          setView(next);
          setError(null);
          setLoading(false);
        },
        (err: unknown) => {
          if (id !== latest.current) return;
          setError(errorMessage(err));
          setLoading(false);
        },
      );
    },
    [bridge],
  );
  useEffect(() => {
    refresh();
    return () => {
      latest.current++;
    };
  }, [refresh]);
  useBridgeEvent("catalog/changed", () => refresh());
  useReconnected(refresh);
  return { view, error, loading, refresh };
}
