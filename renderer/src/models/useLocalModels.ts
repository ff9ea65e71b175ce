/**
 * The Models screen's data: downloaded models, the catalog, and downloads, kept live by the
 * `models/download` events (every window sees every download's progress).
 */
import { useState } from "react";
import type { CallResponse, EventPayload } from "../../../main/bridge/contract.ts";
import { useBridgeEvent, useBridgeQuery } from "../bridge/hooks.ts";

export type LocalModels = CallResponse<"models/local">;
export type ModelDownload = EventPayload<"models/download">;

export function useLocalModels() {
  const query = useBridgeQuery("models/local", undefined, { refreshOn: ["settings/changed"] });
  const [live, setLive] = useState<Record<string, ModelDownload>>({});
  useBridgeEvent("models/download", (d) => {
    setLive((all) => ({ ...all, [d.name]: d }));
    if (d.state !== "running") query.refresh();
  });
  const downloads: Record<string, ModelDownload> = {};
  for (const d of query.data?.downloads ?? []) downloads[d.name] = d;
  Object.assign(downloads, live);
  return { ...query, downloads };
}
