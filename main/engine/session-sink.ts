/** Adapts the session store to the loop's SessionSink (one session file). */
import type { SessionSink } from "../agent/session-sink.ts";
import type { SessionStore } from "../sessions/store.ts";
import type { BodyRecord } from "../sessions/records.ts";

/**
 * A failed write (disk full, a record the store rejects) must not end the conversation: it is
 * reported through `onError` and the turn goes on.
 */
export function storeSink(
  store: SessionStore,
  id: string,
  onError: (err: Error) => void,
): SessionSink {
  const append = (record: BodyRecord): void => {
    try {
      store.append(id, record);
    } catch (err) {
      onError(err as Error);
    }
  };
  return {
    id,
    appendMessage: (message) => append({ t: "message", message }),
    removeMessages: (ids) => append({ t: "remove", ids }),
    resetMessages: (messages) => append({ t: "reset", messages }),
    setTodos: (todos) => append({ t: "todos", todos }),
    setAgent: (agent) => append({ t: "agent", agent }),
    setStats: (stats) => append({ t: "stats", stats }),
    flush: () => store.flush(id).catch((err: Error) => onError(err)),
  };
}
