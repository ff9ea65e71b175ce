/** Where the loop writes what must survive a restart. The session store implements it. */
import type { Stats } from "../core/types.ts";
import type { TodoItem } from "../tools/types.ts";
import type { Message } from "../core/message.ts";

export interface SessionSink {
  readonly id: string;
  appendMessage(message: Message): void;
  /** Messages that left history (ejected plugin messages). */
  removeMessages(ids: string[]): void;
  /** History was replaced wholesale (compaction). */
  resetMessages(messages: Message[]): void;
  setTodos(todos: TodoItem[]): void;
  setAgent(name: string): void;
  setStats(stats: Stats): void;
  /** Makes everything appended so far durable (end of a turn). */
  flush(): Promise<void>;
}
