/** Session export: Markdown for people, JSON (a stable, documented shape) for programs. */
import type { Message } from "../core/message.ts";
import type { TodoItem } from "../tools/types.ts";
import type { Stats } from "../core/types.ts";
import type { LoadedSession } from "./store.ts";

export const EXPORT_FORMAT = "islet-session";
export const EXPORT_VERSION = 1;

/**
 * The JSON export, version 1. Fields are only ever added; a change of meaning bumps `version`.
 * `messages` is the reconstructed history (removals and compaction applied), oldest first, each
 * a Message as in main/core/message.ts; `stats` is null when the session never finished a turn.
 */
export interface SessionExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  session: {
    id: string;
    title: string;
    createdAt: string;
    updatedAt: string;
    workdir: string;
    agent: string;
    provider: string;
    model: string;
    appVersion: string;
    parentId?: string;
  };
  messages: Message[];
  todos: TodoItem[];
  stats: Stats | null;
}

export function toSessionExport(s: LoadedSession, exportedAt: Date = new Date()): SessionExport {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    session: {
      id: s.id,
      title: s.title,
      createdAt: s.meta.createdAt,
      updatedAt: s.updatedAt,
      workdir: s.meta.workdir,
      agent: s.agent,
      provider: s.provider,
      model: s.model,
      appVersion: s.meta.appVersion,
      ...(s.meta.parentId !== undefined ? { parentId: s.meta.parentId } : {}),
    },
    messages: s.messages,
    todos: s.todos,
    stats: s.stats,
  };
}

export function exportJson(s: LoadedSession, exportedAt?: Date): string {
  return JSON.stringify(toSessionExport(s, exportedAt), null, 2) + "\n";
}

/** A code fence longer than any backtick run inside `body`, so the body cannot close it early. */
export function fenced(body: string, lang = ""): string {
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${body}${body.endsWith("\n") ? "" : "\n"}${fence}`;
}

/** Inline code that survives backticks in the text. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

const ROLE_NAMES: Record<Message["role"], string> = {
  system: "System",
  user: "User",
  assistant: "Assistant",
  tool: "Tool result",
};

function heading(m: Message): string {
  if (m.kind === "summary") return "## Summary of earlier conversation";
  let title = ROLE_NAMES[m.role];
  if (m.role === "tool") title += m.toolName ? ` · ${code(m.toolName)}` : "";
  if (m.role === "tool" && m.isError) title += " · error";
  if (m.kind === "synthetic") title += ` · injected by ${code(m.source ?? "a plugin")}`;
  return `## ${title}`;
}

/** Model output with an unclosed code fence would swallow every later section: close it. */
function closeOpenFence(text: string): string {
  const fenceLines = text.split("\n").filter((line) => /^\s*(```|~~~)/.test(line)).length;
  return fenceLines % 2 === 1 ? text + "\n```" : text;
}

function messageMarkdown(m: Message): string {
  const parts = [heading(m)];
  if (m.kind === "synthetic" && m.eject) parts.push("_Removed from history after one turn._");
  if (m.thinking) {
    parts.push(
      `<details>\n<summary>Thinking</summary>\n\n${fenced(m.thinking, "text")}\n\n</details>`,
    );
  }
  if (m.role === "tool") {
    const label = m.isError ? "Error output" : "Output";
    const call = m.toolCallId ? ` for call ${code(m.toolCallId)}` : "";
    parts.push(`${label}${call}:\n\n${fenced(m.content, "text")}`);
  } else if (m.content.trim() !== "") {
    parts.push(closeOpenFence(m.content.trimEnd()));
  }
  for (const call of m.toolCalls ?? []) {
    const args = JSON.stringify(call.arguments, null, 2);
    parts.push(`**Tool call** ${code(call.name)} (${code(call.id)}):\n\n${fenced(args, "json")}`);
  }
  return parts.join("\n\n");
}

const TODO_MARKS: Record<TodoItem["status"], string> = {
  pending: "- [ ] ",
  in_progress: "- [ ] (in progress) ",
  completed: "- [x] ",
};

function statsMarkdown(stats: Stats): string {
  const rows: [string, string][] = [
    ["Turns", String(stats.turns)],
    ["Iterations", String(stats.iterations)],
    ["Tool calls", `${stats.tools.calls} (${stats.tools.errors} errors)`],
    ["Tokens in / out", `${stats.tokens.in} / ${stats.tokens.out}`],
    ["Compactions", String(stats.compactions)],
    ["Duration", `${Math.round(stats.duration / 1000)} s`],
  ];
  if (stats.topTools.length > 0) {
    rows.push(["Top tools", stats.topTools.map((t) => `${t.name} ×${t.count}`).join(", ")]);
  }
  return ["| Stat | Value |", "| --- | --- |", ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join(
    "\n",
  );
}

export function exportMarkdown(s: LoadedSession): string {
  const model = s.provider ? `${s.provider} / ${s.model}` : s.model;
  const meta = [
    `- **Session:** ${code(s.id)}`,
    `- **Created:** ${s.meta.createdAt}`,
    `- **Updated:** ${s.updatedAt}`,
    `- **Working directory:** ${code(s.meta.workdir || "(unknown)")}`,
    `- **Agent:** ${s.agent || "(default)"}`,
    `- **Model:** ${model || "(unknown)"}`,
    `- **Messages:** ${s.messages.length}`,
  ];
  if (s.meta.appVersion) meta.push(`- **Islet:** ${s.meta.appVersion}`);
  if (s.meta.parentId) meta.push(`- **Parent session:** ${code(s.meta.parentId)}`);
  const sections = [`# ${s.title.trim() || "Untitled session"}`, meta.join("\n"), "---"];
  for (const m of s.messages) sections.push(messageMarkdown(m));
  if (s.todos.length > 0) {
    sections.push(
      "---",
      "## Todos",
      s.todos.map((t) => TODO_MARKS[t.status] + t.content).join("\n"),
    );
  }
  if (s.stats)
    sections.push(s.todos.length > 0 ? "## Stats" : "---\n\n## Stats", statsMarkdown(s.stats));
  return sections.join("\n\n") + "\n";
}
