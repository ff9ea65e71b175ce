/** The agent's plan (its last TodoWrite), beside the transcript: what is done, doing, to do. */
import { CheckIcon } from "./chat-icons.tsx";
import type { TodoItem } from "./transcript.ts";
import "./todo.css";

const STATUS_LABEL: Record<TodoItem["status"], string> = {
  completed: "done",
  in_progress: "in progress",
  pending: "to do",
};

export function TodoPanel({ todos }: { todos: TodoItem[] }) {
  if (todos.length === 0) return null;
  const done = todos.filter((t) => t.status === "completed").length;
  return (
    <aside className="todo-panel" aria-labelledby="todo-title">
      <header className="todo-head">
        <h2 id="todo-title">Plan</h2>
        <span className="muted">
          {done} of {todos.length} done
        </span>
      </header>
      <div
        className="todo-progress"
        role="progressbar"
        aria-label="Plan progress"
        aria-valuemin={0}
        aria-valuemax={todos.length}
        aria-valuenow={done}
      >
        <span style={{ width: `${(done / todos.length) * 100}%` }} />
      </div>
      <ol className="todo-list">
        {todos.map((t, i) => (
          <li key={i} className={`todo todo-${t.status}`}>
            <span className="todo-mark" aria-hidden="true">
              {t.status === "completed" ? <CheckIcon /> : null}
            </span>
            <span className="todo-text">{t.content}</span>
            <span className="visually-hidden"> ({STATUS_LABEL[t.status]})</span>
          </li>
        ))}
      </ol>
    </aside>
  );
}
