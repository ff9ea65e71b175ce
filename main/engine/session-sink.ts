/** Adapts the session store to the loop's SessionSink (one session file). */
import type { SessionSink } from "../agent/session-sink.ts";
import type { SessionStore } from "../sessions/store.ts";

export function storeSink(store: SessionStore, id: string): SessionSink {
  return {
    id,
    appendMessage: (message) => store.appendMessage(id, message),
    removeMessages: (ids) => store.append(id, { t: "remove", ids }),
    resetMessages: (messages) => store.append(id, { t: "reset", messages }),
    setTodos: (todos) => store.append(id, { t: "todos", todos }),
    setAgent: (agent) => store.append(id, { t: "agent", agent }),
    setStats: (stats) => store.append(id, { t: "stats", stats }),
    flush: () => store.flush(id),
  };
}
