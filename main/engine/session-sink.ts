/** Adapts the session store to the loop's SessionSink (one session file), and saves display events. */
import type { AgentEvent, EventSink } from "../turn/events.ts";
import type { SessionSink } from "../turn/session-sink.ts";
import { isHistoryEvent } from "../core/history.ts";
import type { SessionStore } from "../sessions/store.ts";
import type { BodyRecord } from "../sessions/records.ts";
import type { Message } from "../core/message.ts";

export interface StoreSink extends SessionSink {
  /** Saves one display event (an `event` record) for the session's history. */
  appendEvent(event: AgentEvent): void;
}

/**
 * A failed write (disk full, a record the store rejects) must not end the conversation: it is
 * reported through `onError` and the turn goes on.
 */
export function storeSink(
  store: SessionStore,
  id: string,
  onError: (err: Error) => void,
): StoreSink {
  const append = (record: BodyRecord | BodyRecord[]): void => {
    try {
      store.append(id, record);
    } catch (err) {
      onError(err as Error);
    }
  };
  // A prompt, an answer, its thinking or a tool result is followed soon by the message that
  // holds the same text: events wait for that message (in order, with whatever comes between)
  // and are then saved as references to it instead of second copies (records.ts, `ref`). A
  // model call's hook trace and the turn's offer wait too, so they cost no write of their own.
  // Anything else written, a flush, or too many waiting events saves them whole.
  let held: AgentEvent[] = [];
  const release = (): void => {
    if (held.length === 0) return;
    append(held.map((event): BodyRecord => ({ t: "event", event })));
    held = [];
  };
  const beside = (record: BodyRecord): void => {
    release();
    append(record);
  };
  return {
    id,
    appendMessage: (message) => {
      const records = held.map((event) => referenced(event, message));
      held = [];
      records.push({ t: "message", message });
      append(records);
    },
    removeMessages: (ids) => beside({ t: "remove", ids }),
    resetMessages: (messages) => beside({ t: "reset", messages }),
    setTodos: (todos) => beside({ t: "todos", todos }),
    setAgent: (agent) => beside({ t: "agent", agent }),
    setStats: (stats) => beside({ t: "stats", stats }),
    appendEvent: (event) => {
      if (held.length > 0 || HELD.has(event.type)) held.push(event);
      else append({ t: "event", event });
      if (held.length >= MAX_HELD) release();
    },
    flush: () => {
      release();
      return store.flush(id).catch((err: Error) => onError(err));
    },
  };
}

const HELD: ReadonlySet<AgentEvent["type"]> = new Set([
  "user_message",
  "thinking",
  "assistant",
  "tool_result",
  "hook_trace",
  "extensions_offered",
]);
const MAX_HELD = 64;

/** The event's record: a reference to `message` when the message carries its text. */
function referenced(event: AgentEvent, message: Message): BodyRecord {
  const ref = message.id;
  switch (event.type) {
    case "user_message":
      if (message.role === "user" && message.kind === "normal" && event.text === message.content)
        return { t: "event", event: { type: event.type } as AgentEvent, ref };
      break;
    case "assistant":
      if (message.role === "assistant" && event.text === message.content)
        return { t: "event", event: { type: event.type } as AgentEvent, ref };
      break;
    case "thinking":
      if (message.role === "assistant" && event.text === message.thinking)
        return { t: "event", event: { type: event.type } as AgentEvent, ref };
      break;
    case "tool_result":
      if (
        message.role === "tool" &&
        message.toolCallId === event.id &&
        event.output === message.content
      ) {
        const { output: _output, ...rest } = event;
        return { t: "event", event: rest as AgentEvent, ref };
      }
      break;
  }
  return { t: "event", event };
}

/** The conversation's event sink: display events are saved, then passed on; deltas, tokens and retries only pass. */
export function savingEmit(emit: EventSink, sink: StoreSink): EventSink {
  return (event) => {
    if (isHistoryEvent(event)) sink.appendEvent(event);
    emit(event);
  };
}
