/**
 * The output style picker (as `/output-style NAME`): how this chat's answers are written. A
 * style shapes the main conversation only; sub-agents keep their own agent's prompt (as in Claude
 * Code). Read again on focus, so a style picked with the slash command or added on disk shows.
 */
import { useCallback } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import type { LiveBridge } from "../bridge/index.ts";
import { LabelledSelect } from "../ui/LabelledSelect.tsx";
import { StyleIcon } from "../ui/more-icons.tsx";
import { useChoice } from "./useChoice.ts";

type Styles = CallResponse<"outputStyles/list">;

const styleErrors = (r: Styles) => r.errors;

export function OutputStylePicker({ conversationId }: { conversationId: string }) {
  const list = useCallback(
    (bridge: LiveBridge) => bridge.call("outputStyles/list", { conversationId }),
    [conversationId],
  );
  const select = (bridge: LiveBridge, style: string) =>
    bridge.call("outputStyles/select", { conversationId, style });
  const { data, failure, load, choose } = useChoice(list, select, styleErrors);
  const current = data?.styles.find((s) => s.name === data.current);
  return (
    <LabelledSelect
      icon={<StyleIcon />}
      label="Output style for this chat"
      title={current?.description || "Output style"}
      value={data?.current ?? ""}
      options={data?.styles.map((s) => ({
        value: s.name,
        label: s.name === "default" ? "Default style" : s.name,
        title: s.description,
      }))}
      loading="Styles…"
      failure={failure}
      onFocus={load}
      onChange={choose}
    />
  );
}
