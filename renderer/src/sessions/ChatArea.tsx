/**
 * The chat screen's frame until ChatView lands: the sessions column, a header with the agent and
 * model pickers for the open session, and the chat placeholder. Opening a session joins it
 * (`chat/open`) so the pickers act on it. The merge puts SessionsPanel and the pickers into
 * ChatView's `sessionsPanel` and `headerControls` slots instead.
 */
import { useEffect, useState } from "react";
import type { AppInfo } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, type Query } from "../bridge/hooks.ts";
import { ChatPlaceholder } from "../chat/ChatPlaceholder.tsx";
import { AgentPicker } from "../models/AgentPicker.tsx";
import { ModelPicker } from "../models/ModelPicker.tsx";
import { SessionsPanel } from "./SessionsPanel.tsx";

export function ChatArea({ info }: { info: Query<AppInfo> }) {
  const bridge = useBridge();
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [opened, setOpened] = useState<{ id: string; title: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    setOpened(null);
    if (!sessionId) return;
    let live = true;
    bridge.call("chat/open", { sessionId }).then(
      (r) => {
        if (live) setOpened({ id: r.conversationId, title: r.title });
        setFailure(null);
      },
      (err: unknown) => live && setFailure(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [bridge, sessionId]);

  const conversationId = opened?.id ?? null;
  return (
    <div className="chat-area">
      <SessionsPanel activeId={sessionId} onOpen={setSessionId} />
      <div className="chat-column">
        <header className="chat-area-head">
          <h2 className="chat-area-title">{opened?.title || (sessionId ? "…" : "New chat")}</h2>
          <div className="chat-area-controls">
            <AgentPicker key={`a-${conversationId}`} conversationId={conversationId} />
            <ModelPicker key={`m-${conversationId}`} conversationId={conversationId} />
          </div>
        </header>
        {failure ? (
          <p className="form-error" role="alert">
            {failure}
          </p>
        ) : null}
        <ChatPlaceholder info={info} />
      </div>
    </div>
  );
}
