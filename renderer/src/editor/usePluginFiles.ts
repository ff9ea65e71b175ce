/** One plugin's file list and current problems, fetched again after every reload. */
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridgeQuery } from "../bridge/hooks.ts";

export type PluginFiles = CallResponse<"editor/files">;

export function usePluginFiles(plugin: string | null) {
  const files = useBridgeQuery(
    "editor/files",
    { name: plugin ?? "" },
    { enabled: plugin !== null, refreshOn: ["plugins/changed"] },
  );
  // Right after a switch, the answer kept is the previous plugin's: show none until this one's.
  const data: PluginFiles | null = files.data?.name === plugin ? files.data : null;
  return { data, error: files.error, refresh: files.refresh };
}
