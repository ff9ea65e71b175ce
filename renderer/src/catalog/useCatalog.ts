/**
 * The Catalog tab's data: `catalog/list`, again whenever the catalogs or the installed packs
 * change (`catalog/changed`, from any window) and after a reconnect. `refresh(true)` fetches URL
 * catalogs anew.
 */
import { useCallback } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridgeQuery } from "../bridge/hooks.ts";

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
  const list = useBridgeQuery("catalog/list", undefined, { refreshOn: ["catalog/changed"] });
  const { refresh: again, refreshWith } = list;
  const refresh = useCallback(
    (remote = false) => (remote ? refreshWith({ refresh: true }) : again()),
    [again, refreshWith],
  );
  return { view: list.data, error: list.error, loading: list.loading, refresh };
}
