/**
 * The agent picker: in a conversation it switches the agent as `/agent NAME` does (onAgentSwitch
 * hooks run); without one it sets the agent new chats start with.
 */
import { useCallback, useEffect, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent, useReconnected } from "../bridge/hooks.ts";
import { BotIcon } from "../ui/more-icons.tsx";
import "./pickers.css";

export function AgentPicker({ conversationId }: { conversationId: string | null }) {
  const bridge = useBridge();
  const [data, setData] = useState<CallResponse<"agents/list"> | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const load = useCallback(() => {
    bridge.call("agents/list", conversationId ? { conversationId } : {}).then(
      (r) => setData(r),
      (err: unknown) => setFailure(errorMessage(err)),
    );
  }, [bridge, conversationId]);
  useEffect(load, [load]);
  useReconnected(load);
  useBridgeEvent("settings/changed", (e) => {
    if (e.section === "agents") load();
  });
  // Agent files added, edited or removed on disk (the homes are watched).
  useBridgeEvent("plugins/changed", load);

  const choose = async (agent: string) => {
    try {
      await bridge.call("agents/select", { ...(conversationId ? { conversationId } : {}), agent });
      setFailure(null);
    } catch (err) {
      setFailure(errorMessage(err));
    }
    load();
  };

  const current = data?.agents.find((a) => a.name === data.current);
  return (
    <div className="picker">
      <label className="picker-field" title={current?.description ?? "Agent"}>
        <BotIcon />
        <span className="visually-hidden">
          {conversationId ? "Agent for this chat" : "Agent for new chats"}
        </span>
        <select
          className="picker-select"
          value={data?.current ?? ""}
          disabled={!data}
          onChange={(e) => void choose(e.target.value)}
        >
          {!data ? <option value="">Agents…</option> : null}
          {data?.agents.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      {failure ? (
        <p className="picker-error" role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
