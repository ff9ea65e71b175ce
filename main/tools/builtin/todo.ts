/** TodoWrite: replace the session's todo list (the model's plan, shown to the user). */
import { z } from "zod";
import { defineTool } from "../define.ts";
import type { TodoItem } from "../types.ts";

const MARKS: Record<TodoItem["status"], string> = {
  completed: "[x]",
  in_progress: "[~]",
  pending: "[ ]",
};

export const todoWriteTool = defineTool({
  name: "TodoWrite",
  description:
    "Replace the todo list for this task with the full updated list. Use it to plan multi-step " +
    "work and to show progress: keep one item in_progress at a time, mark items completed as " +
    "soon as they are done.",
  args: {
    todos: z
      .array(
        z.strictObject({
          content: z.string().min(1).describe("What to do"),
          status: z.enum(["pending", "in_progress", "completed"]),
        }),
      )
      .describe("The complete list; it replaces the previous one"),
  },
  parallel: false,
  approval: "allow",
  async execute(args, ctx) {
    ctx.state.todos = args.todos.map((t) => ({ content: t.content, status: t.status }));
    return summarizeTodos(ctx.state.todos);
  },
});

export function summarizeTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return "Todo list cleared.";
  const count = (status: TodoItem["status"]): number =>
    todos.filter((t) => t.status === status).length;
  const head =
    `Todo list updated: ${todos.length} items (${count("completed")} completed, ` +
    `${count("in_progress")} in progress, ${count("pending")} pending)`;
  return [head, ...todos.map((t) => `${MARKS[t.status]} ${t.content}`)].join("\n");
}
