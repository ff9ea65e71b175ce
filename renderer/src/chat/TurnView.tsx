/** One turn: the prompt, then what the agent did (text, thinking, tools, notices), then its hooks. */
import { memo } from "react";
import type { QuestionAnswer, QuestionAsked } from "../../../main/bridge/contract.ts";
import { PuzzleIcon, RetryIcon } from "./chat-icons.tsx";
import { CopyButton } from "./CopyButton.tsx";
import { formatDuration } from "./format.ts";
import { HookTimeline } from "./HookTimeline.tsx";
import { Markdown } from "./Markdown.tsx";
import { NoModelError } from "./NoModelError.tsx";
import { Thinking } from "./Thinking.tsx";
import { ToolCard } from "./ToolCard.tsx";
import type { Item, Turn } from "./transcript.ts";
import "./turn.css";
import { Shown } from "../ui/Shown.tsx";

export interface TurnActions {
  /** Approval questions of this conversation, by tool item id. */
  approvals: Map<number, QuestionAsked>;
  onAnswer(answer: QuestionAnswer): void;
  /** Set when the last turn failed (only the last turn's error offers Retry). */
  onRetry: (() => void) | null;
  /** Opens the Models view (an error with no model to chat with offers it). */
  onOpenModels?: () => void;
}

export const TurnView = memo(function TurnView({
  turn,
  actions,
  last,
}: {
  turn: Turn;
  actions: TurnActions;
  /** The newest turn: its error may offer Retry. */
  last: boolean;
}) {
  const itemActions = last || !actions.onRetry ? actions : { ...actions, onRetry: null };
  const waiting = turn.status === "running" && turn.items.length === 0;
  return (
    <div className="turn" data-status={turn.status}>
      {turn.prompt !== null ? (
        <div className="msg msg-user">
          <div className="bubble-user">{turn.prompt}</div>
          <div className="msg-actions msg-actions-user">
            <CopyButton text={turn.prompt} label="Copy prompt" />
          </div>
        </div>
      ) : null}
      <div className="agent">
        {turn.items.map((item) => (
          <ItemView key={item.id} item={item} actions={itemActions} />
        ))}
        {waiting ? (
          <p className="typing" role="status">
            <span className="typing-dots" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            <span className="visually-hidden">The agent is working</span>
          </p>
        ) : null}
        {turn.status === "stopped" ? <p className="turn-note">Stopped.</p> : null}
        {turn.status === "max_steps" ? (
          <p className="turn-note">Stopped after the maximum number of steps.</p>
        ) : null}
        <HookTimeline
          entries={turn.hooks}
          offer={turn.offer}
          running={turn.hooksRunning}
          turnId={turn.id}
        />
      </div>
    </div>
  );
});

const ItemView = memo(function ItemView({ item, actions }: { item: Item; actions: TurnActions }) {
  switch (item.kind) {
    case "assistant":
      return (
        <div className={`msg msg-assistant${item.streaming ? " streaming" : ""}`}>
          <Markdown text={item.text} />
          {!item.streaming ? (
            <div className="msg-actions">
              <CopyButton text={item.text} label="Copy message" />
            </div>
          ) : null}
        </div>
      );
    case "thinking":
      return <Thinking id={item.id} text={item.text} streaming={item.streaming} />;
    case "tool":
      return (
        <ToolCard
          item={item}
          approval={actions.approvals.get(item.id) ?? null}
          onAnswer={actions.onAnswer}
        />
      );
    case "notice":
      return (
        <div className="plugin-note" role="note">
          <PluginTag source={item.source} />
          <span>
            <Shown text={item.text} lines />
          </span>
        </div>
      );
    case "injected":
      return (
        <div className="plugin-note plugin-injected" role="note">
          <PluginTag source={item.source} />
          <span className="injected-label">
            injected a{item.role === "user" ? " user" : "n assistant"} message
          </span>
          <div className="injected-text">
            <Markdown text={item.text} />
          </div>
        </div>
      );
    case "retry":
      return (
        <p className="turn-note turn-retry" role="status">
          <RetryIcon /> Retrying (attempt {item.attempt}) in {formatDuration(item.delayMs)}:{" "}
          {item.reason}
        </p>
      );
    case "agent_switch":
      return (
        <p className="turn-note">
          Switched agent from <Shown text={item.from} /> to{" "}
          <strong>
            <Shown text={item.to} />
          </strong>
          {item.reason ? (
            <>
              {" ("}
              <Shown text={item.reason} />)
            </>
          ) : null}
        </p>
      );
    case "compaction":
      return (
        <p className="turn-note">
          {item.success
            ? `Compacted ${item.preMessages} messages into ${item.postMessages}.`
            : "Compaction did not free any context."}
        </p>
      );
    case "command":
      return (
        <div className="msg msg-command">
          <p className="command-name">/{item.name}</p>
          <pre className="command-output">{item.output}</pre>
        </div>
      );
    case "error":
      if (item.remedy === "get_model")
        return <NoModelError onRetry={actions.onRetry} onOpenModels={actions.onOpenModels} />;
      return (
        <div className="turn-error" role="alert">
          <p>
            <strong>The turn failed:</strong> {item.message}
          </p>
          {actions.onRetry ? (
            <button type="button" className="button" onClick={actions.onRetry}>
              <RetryIcon /> Retry
            </button>
          ) : null}
        </div>
      );
  }
});

function PluginTag({ source }: { source: string }) {
  return (
    <span className="plugin-tag" title={`From plugin ${source}`}>
      <PuzzleIcon />
      {source}
    </span>
  );
}
