/**
 * The chat screen: (the sessions column, given by the app), the conversation — header with its
 * title, pickers and context meter, the transcript, the composer — and the agent's plan.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { QuestionAnswer, QuestionAsked } from "../../../main/bridge/contract.ts";
import { useBridgeQuery } from "../bridge/hooks.ts";
import { useQuestions } from "../questions/useQuestions.ts";
import { Callout } from "../ui/Callout.tsx";
import { RecommendedModel } from "../models/RecommendedModel.tsx";
import { useModels } from "../models/useModels.ts";
import { Logo } from "../ui/Logo.tsx";
import { matchApprovals } from "./approvals.ts";
import { Composer } from "./Composer.tsx";
import { ContextMeter } from "./ContextMeter.tsx";
import { StarterPrompts } from "./StarterPrompts.tsx";
import { TodoPanel } from "./TodoPanel.tsx";
import { ApprovalBar } from "./ToolCard.tsx";
import { TranscriptList } from "./TranscriptList.tsx";
import type { Turn } from "./transcript.ts";
import type { TurnActions } from "./TurnView.tsx";
import { useChat } from "./useChat.ts";
import "./chat.css";

const isApproval = (q: QuestionAsked) => q.question.kind === "approval";

export function ChatView({
  sessionId,
  onSessionOpened,
  sessionsPanel,
  headerControls,
  focusComposer = 0,
  onOpenModels,
}: {
  sessionId: string | null;
  onSessionOpened(id: string): void;
  /** Each new value puts the focus in the composer (New chat, the skip link). */
  focusComposer?: number;
  sessionsPanel?: ReactNode;
  /** The pickers; `agent` is the one the conversation uses now (after any switch). */
  headerControls?: (conversationId: string | null, agent: string | null) => ReactNode;
  /** Opens the Models view (offered where a turn failed for want of a model). */
  onOpenModels?: () => void;
}) {
  const chat = useChat(sessionId, onSessionOpened);
  const { conversationId, transcript } = chat;
  // Every approval is kept, and this conversation's picked at each render: one that comes before
  // the page has taken in its conversation's id (a busy machine) must not be lost, and one of
  // another conversation waits for that conversation to be shown again.
  const questions = useQuestions(isApproval);
  const mine = useMemo(
    () => questions.pending.filter((q) => q.conversationId === conversationId),
    [questions.pending, conversationId],
  );
  const input = useRef<HTMLTextAreaElement>(null);
  const [preset, setPreset] = useState<{ text: string } | null>(null);
  useEffect(() => {
    if (focusComposer > 0) input.current?.focus();
  }, [focusComposer]);
  const { answer } = questions;
  // The answered question leaves the page: the focus goes back to the composer.
  const onAnswer = useCallback(
    (a: QuestionAnswer) => {
      answer(a);
      input.current?.focus();
    },
    [answer],
  );
  const { byItem, unmatched } = useMemo(
    () => matchApprovals(transcript.turns, mine),
    [transcript.turns, mine],
  );
  const lastFailed = transcript.turns.at(-1)?.status === "error" && !chat.running;
  const actions: TurnActions = useMemo(
    () => ({
      approvals: byItem,
      onAnswer,
      onRetry: lastFailed ? chat.retry : null,
      onOpenModels,
    }),
    [byItem, onAnswer, lastFailed, chat.retry, onOpenModels],
  );
  const turns = transcript.turns;
  const agent = currentAgent(turns) ?? chat.agent;

  return (
    <div className="chat-screen">
      {sessionsPanel}
      <section className="chat-column" aria-labelledby="chat-title">
        <header className="chat-header">
          <div className="chat-heading">
            <h1 id="chat-title">{chat.title || firstPrompt(transcript.turns) || "New chat"}</h1>
            {agent && !headerControls ? <span className="chat-agent">{agent}</span> : null}
          </div>
          <div className="chat-header-controls">
            {headerControls?.(conversationId, agent ?? null)}
            <ContextMeter tokens={transcript.tokens} />
          </div>
        </header>
        {chat.openError ? (
          <div className="chat-open-error">
            <Callout tone="bad" title="This session could not be opened" role="alert">
              <p>{chat.openError}</p>
            </Callout>
          </div>
        ) : null}
        <TranscriptList
          turns={turns}
          actions={actions}
          empty={<EmptyChat loading={chat.loading} onStarter={(text) => setPreset({ text })} />}
        />
        <div className="composer-wrap">
          {unmatched.map((asked) => (
            <div key={asked.id} className="tool-card tool-waiting loose-approval">
              <ApprovalBar asked={asked} onAnswer={onAnswer} />
            </div>
          ))}
          {questions.error ? <p className="error-text composer-error">{questions.error}</p> : null}
          <Composer
            inputRef={input}
            preset={preset}
            running={chat.running}
            stopping={chat.stopping}
            disabled={chat.openError !== null || chat.loading}
            onSend={chat.send}
            onStop={chat.stop}
          />
        </div>
      </section>
      <TodoPanel todos={transcript.todos} />
    </div>
  );
}

/** The agent the last switch went to (`/agent`, a plugin, the model), if any. */
function currentAgent(turns: Turn[]): string | null {
  for (let t = turns.length - 1; t >= 0; t--)
    for (let i = turns[t].items.length - 1; i >= 0; i--) {
      const item = turns[t].items[i];
      if (item.kind === "agent_switch") return item.to;
    }
  return null;
}

/** Until the session has a title, its first prompt names it. */
function firstPrompt(turns: { prompt: string | null }[]): string | null {
  const prompt = turns.find((t) => t.prompt)?.prompt;
  return prompt ? (prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt) : null;
}

function EmptyChat({ loading, onStarter }: { loading: boolean; onStarter(text: string): void }) {
  const info = useBridgeQuery("app/info", undefined);
  // Nothing to chat with yet: offer the built-in model that fits this machine.
  const models = useModels(null);
  const noModel = models.data !== undefined && models.data.current === null;
  if (loading)
    return (
      <p className="chat-empty" role="status">
        <span className="spinner" aria-hidden="true" /> Opening the session…
      </p>
    );
  return (
    <div className="chat-empty">
      <Logo size={48} />
      <h2>What shall we work on?</h2>
      {info.data ? (
        <p className="muted">
          The agent works in <span className="path">{info.data.workdir}</span>
        </p>
      ) : null}
      <p className="muted chat-empty-tip">
        Type <kbd>/</kbd> for commands. Tools that change files or run commands ask first.
      </p>
      {noModel ? <RecommendedModel /> : null}
      <StarterPrompts onPick={onStarter} />
    </div>
  );
}
