/** The model picker's data: servers and their models, the current one; fresh on settings changes. */
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridgeEvent, useBridgeQuery } from "../bridge/hooks.ts";

export type ModelList = CallResponse<"models/list">;

export function useModels(conversationId: string | null): {
  data: ModelList | undefined;
  error: string | null;
  loading: boolean;
  refresh(): void;
} {
  const models = useBridgeQuery("models/list", conversationId ? { conversationId } : {});
  const { refresh } = models;
  useBridgeEvent("settings/changed", (e) => {
    if (e.section === "providers" || e.section === "models") refresh();
  });
  return { data: models.data, error: models.error, loading: models.loading, refresh };
}
