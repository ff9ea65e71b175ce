/**
 * The agent picker: in a conversation it switches the agent as `/agent NAME` does (onAgentSwitch
 * hooks run); without one it sets the agent new chats start with.
 */
import { useCallback } from "react";
import type { LiveBridge } from "../bridge/index.ts";
import { useBridgeEvent } from "../bridge/hooks.ts";
import { LabelledSelect } from "../ui/LabelledSelect.tsx";
import { BotIcon } from "../ui/more-icons.tsx";
import { useChoice } from "./useChoice.ts";

export function AgentPicker({ conversationId }: { conversationId: string | null }) {
  const list = useCallback(
    (bridge: LiveBridge) => bridge.call("agents/list", conversationId ? { conversationId } : {}),
    [conversationId],
  );
  const select = (bridge: LiveBridge, agent: string) =>
    bridge.call("agents/select", { ...(conversationId ? { conversationId } : {}), agent });
  // Agent files added, edited or removed on disk come as `plugins/changed` (useChoice).
  const { data, failure, load, choose } = useChoice(list, select);
  useBridgeEvent("settings/changed", (e) => {
    if (e.section === "agents") load();
  });
  const current = data?.agents.find((a) => a.name === data.current);
  return (
    <LabelledSelect
      icon={<BotIcon />}
      label={conversationId ? "Agent for this chat" : "Agent for new chats"}
      title={current?.description ?? "Agent"}
      value={data?.current ?? ""}
      options={data?.agents.map((a) => ({ value: a.name, label: a.name }))}
      loading="Agents…"
      failure={failure}
      onChange={choose}
    />
  );
}
