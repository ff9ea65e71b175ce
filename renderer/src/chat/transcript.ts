/**
 * The chat transcript as a view model, built by ONE pure reducer from the engine's AgentEvents:
 * the live `chat/send` chunks and a saved session's `chat/history` go through the same code, so
 * a resumed session renders exactly like the live one. No DOM, no React: tested under node.
 */
import type { AgentEvent, ChatOutcome } from "../../../main/bridge/contract.ts";
import type { HookTraceEntry } from "../../../main/core/events.ts";
import type { Remedy } from "../../../main/core/remedy.ts";
import { toolItem, withToolEvent, type ToolItem } from "./tool-items.ts";

/** The engine's events (a turn starts with `user_message`, the prompt's echo). */
export type ChatEvent = AgentEvent;

export type TokenState = Extract<AgentEvent, { type: "tokens" }>["tokens"];

export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

export type Item =
  | { kind: "assistant"; id: number; text: string; streaming: boolean }
  | { kind: "thinking"; id: number; text: string; streaming: boolean }
  | ToolItem
  | { kind: "notice"; id: number; source: string; text: string }
  | { kind: "injected"; id: number; source: string; role: "user" | "assistant"; text: string }
  | { kind: "retry"; id: number; attempt: number; delayMs: number; reason: string }
  | { kind: "agent_switch"; id: number; from: string; to: string; reason: string }
  | { kind: "compaction"; id: number; success: boolean; preMessages: number; postMessages: number }
  | { kind: "command"; id: number; name: string; output: string }
  | { kind: "error"; id: number; message: string; errorType: string; remedy?: Remedy };

export interface Turn {
  id: number;
  /** What the person typed; null for events before any prompt (a plugin's first notice). */
  prompt: string | null;
  items: Item[];
  /** Every hook call of the turn, in order (the hook timeline). */
  hooks: HookTraceEntry[];
  /** Past the prompt budget for extensions: how many the turn offered (its latest count). */
  offer: ExtensionsOffered | null;
  /** Hooks running now that say what they do (a Claude Code hook's statusMessage). */
  hooksRunning?: { source: string; text: string }[];
  status: "running" | "done" | "stopped" | "error" | "max_steps";
  /** The prompt was shown locally and its `user_message` echo has not arrived yet. */
  echoPending: boolean;
}

export type ExtensionsOffered = Pick<
  Extract<AgentEvent, { type: "extensions_offered" }>,
  "offered" | "total" | "searched"
>;

export interface Transcript {
  turns: Turn[];
  tokens: TokenState | null;
  todos: TodoItem[];
  nextId: number;
}

export type TranscriptAction =
  | { type: "events"; events: readonly ChatEvent[] }
  /** The person sent `text` (shown at once, before the engine echoes it). */
  | { type: "prompt"; text: string }
  /** The `chat/send` call ended (its outcome), or failed before it produced one (`error`). */
  | { type: "ended"; outcome: ChatOutcome | null; error?: string; remedy?: Remedy }
  /**
   * A saved session's whole history (`chat/history`) replaces what is shown; `running`: its
   * last turn is still going (another window's), so it stays open for the events to come.
   */
  | { type: "history"; events: readonly ChatEvent[]; running?: boolean }
  | { type: "reset" };

export const EMPTY_TRANSCRIPT: Transcript = { turns: [], tokens: null, todos: [], nextId: 1 };

/** A mutable working copy: the reducer copies only the last turn it touches. */
interface Draft {
  turns: Turn[];
  tokens: TokenState | null;
  todos: TodoItem[];
  nextId: number;
}

export function reduceTranscript(state: Transcript, action: TranscriptAction): Transcript {
  if (action.type === "reset") return EMPTY_TRANSCRIPT;
  if (action.type === "history") return transcriptOf(action.events, action.running);
  const d: Draft = { ...state, turns: [...state.turns] };
  if (action.type === "prompt") {
    d.turns.push(newTurn(d, action.text, true));
  } else if (action.type === "ended") {
    end(d, action.outcome, action.error, action.remedy);
  } else {
    for (const event of action.events) apply(d, event);
  }
  return d;
}

/** Folds a whole history (or any event list) from nothing; `running`: its last turn goes on. */
export function transcriptOf(events: readonly ChatEvent[], running = false): Transcript {
  const t = reduceTranscript(EMPTY_TRANSCRIPT, { type: "events", events });
  const last = t.turns.length - 1;
  // A saved session has no running turn (but the one another window is running now).
  return {
    ...t,
    turns: t.turns.map((turn, i) => (running && i === last ? turn : finish(turn, "done"))),
  };
}

function newTurn(d: Draft, prompt: string | null, echoPending: boolean): Turn {
  return {
    id: d.nextId++,
    prompt,
    items: [],
    hooks: [],
    offer: null,
    status: "running",
    echoPending,
  };
}

/** The last turn, copied so it can be changed (created when there is none). */
function current(d: Draft): Turn {
  const last = d.turns.at(-1);
  const turn = last ? { ...last, items: [...last.items] } : newTurn(d, null, false);
  if (last) d.turns[d.turns.length - 1] = turn;
  else d.turns.push(turn);
  return turn;
}

function lastStreaming(turn: Turn, kind: "assistant" | "thinking"): number {
  const i = turn.items.length - 1;
  const item = turn.items[i];
  return item && item.kind === kind && item.streaming ? i : -1;
}

function apply(d: Draft, e: ChatEvent): void {
  if (e.type === "user_message") {
    const last = d.turns.at(-1);
    if (last?.echoPending && last.prompt === e.text)
      d.turns[d.turns.length - 1] = { ...last, echoPending: false };
    else {
      // A new prompt: the one before has ended (a command that forwarded its text to the model).
      if (last?.status === "running") d.turns[d.turns.length - 1] = finish(last, "done");
      d.turns.push(newTurn(d, e.text, false));
    }
    return;
  }
  if (e.type === "tokens") {
    d.tokens = e.tokens;
    return;
  }
  const turn = current(d);
  const push = (item: Item) => turn.items.push(item);
  switch (e.type) {
    case "assistant_delta":
    case "thinking_delta": {
      const kind = e.type === "assistant_delta" ? "assistant" : "thinking";
      const i = lastStreaming(turn, kind);
      const prev = turn.items[i];
      if (prev && (prev.kind === "assistant" || prev.kind === "thinking"))
        turn.items[i] = { ...prev, text: prev.text + e.text };
      else push({ kind, id: d.nextId++, text: e.text, streaming: true });
      return;
    }
    case "assistant_withdrawn": {
      const i = lastStreaming(turn, "assistant");
      const prev = turn.items[i];
      if (prev?.kind !== "assistant") return;
      const text = prev.text.endsWith(e.text) ? prev.text.slice(0, -e.text.length) : "";
      if (text === "") turn.items.splice(i, 1);
      else turn.items[i] = { ...prev, text };
      return;
    }
    case "assistant":
    case "thinking": {
      const kind = e.type;
      // The final text of a step replaces what streamed (the thinking block streams first).
      const i = turn.items.findLastIndex((it) => it.kind === kind && it.streaming);
      const prev = turn.items[i];
      if (prev && (prev.kind === "assistant" || prev.kind === "thinking"))
        turn.items[i] = { ...prev, text: e.text, streaming: false };
      else if (e.text !== "") push({ kind, id: d.nextId++, text: e.text, streaming: false });
      if (i >= 0 && e.text === "") turn.items.splice(i, 1);
      return;
    }
    case "tool_call":
      push(toolItem(d.nextId++, e));
      return;
    case "subagent":
    case "tool_output":
    case "tool_result": {
      const i = turn.items.findLastIndex((it) => it.kind === "tool" && it.callId === e.id);
      const prev = turn.items[i];
      if (prev?.kind !== "tool") return;
      turn.items[i] = withToolEvent(prev, e);
      if (e.type === "tool_result" && !e.error && prev.name === "TodoWrite")
        d.todos = todosOf(prev.arguments) ?? d.todos;
      return;
    }
    case "notice":
      push({ kind: "notice", id: d.nextId++, source: e.source, text: e.text });
      return;
    case "command_output":
      push({ kind: "command", id: d.nextId++, name: e.name, output: e.output });
      return;
    case "injected":
      push({ kind: "injected", id: d.nextId++, source: e.source, role: e.role, text: e.text });
      return;
    case "retry":
      push({
        kind: "retry",
        id: d.nextId++,
        attempt: e.attempt,
        delayMs: e.delayMs,
        reason: e.reason,
      });
      return;
    case "agent_switch":
      push({ kind: "agent_switch", id: d.nextId++, from: e.from, to: e.to, reason: e.reason });
      return;
    case "compaction":
      push({
        kind: "compaction",
        id: d.nextId++,
        success: e.success,
        preMessages: e.preMessages,
        postMessages: e.postMessages,
      });
      return;
    case "error":
      push({
        kind: "error",
        id: d.nextId++,
        message: e.message,
        errorType: e.errorType,
        ...(e.remedy ? { remedy: e.remedy } : {}),
      });
      turn.status = "error";
      return;
    case "hook_trace":
      turn.hooks = [...turn.hooks, ...e.entries];
      return;
    case "extensions_offered":
      turn.offer = { offered: e.offered, total: e.total, searched: e.searched };
      return;
    case "hook_status": {
      const others = (turn.hooksRunning ?? []).filter(
        (h) => !(h.source === e.source && h.text === e.text),
      );
      turn.hooksRunning = e.running ? [...others, { source: e.source, text: e.text }] : others;
      return;
    }
    case "done":
      d.turns[d.turns.length - 1] = finish(turn, turn.status === "running" ? "done" : turn.status);
      return;
  }
}

function end(
  d: Draft,
  outcome: ChatOutcome | null,
  error: string | undefined,
  remedy?: Remedy,
): void {
  if (d.turns.length === 0) return;
  const turn = current(d);
  // The engine sends a command's output as an event too (`command_output`): shown once.
  if (
    outcome?.command &&
    !outcome.command.silent &&
    !turn.items.some((it) => it.kind === "command" && it.name === outcome.command?.name)
  )
    turn.items.push({
      kind: "command",
      id: d.nextId++,
      name: outcome.command.name,
      output: outcome.command.output,
    });
  const failed = error ?? (outcome?.status === "error" ? outcome.error?.title : undefined);
  const fix = remedy ?? (outcome?.status === "error" ? outcome.error?.remedy : undefined);
  if (failed !== undefined && !turn.items.some((it) => it.kind === "error"))
    turn.items.push({
      kind: "error",
      id: d.nextId++,
      message: failed,
      errorType: "",
      ...(fix ? { remedy: fix } : {}),
    });
  const status: Turn["status"] =
    failed !== undefined
      ? "error"
      : outcome?.status === "stopped" || outcome?.status === "max_steps"
        ? outcome.status
        : "done";
  d.turns[d.turns.length - 1] = finish(turn, status);
}

/** Ends a turn: nothing streams any more, and a tool still running was cut short. */
function finish(turn: Turn, status: Turn["status"]): Turn {
  if (turn.status !== "running" && status === "done") status = turn.status;
  return {
    ...turn,
    status,
    echoPending: false,
    hooksRunning: [],
    items: turn.items.map((it) =>
      (it.kind === "assistant" || it.kind === "thinking") && it.streaming
        ? { ...it, streaming: false }
        : it.kind === "tool" && it.state === "running"
          ? { ...it, state: "stopped" }
          : it,
    ),
  };
}

function todosOf(args: Record<string, unknown>): TodoItem[] | null {
  const list = args.todos;
  if (!Array.isArray(list)) return null;
  return list.flatMap((t: unknown) => {
    if (typeof t !== "object" || t === null) return [];
    const { content, status } = t as Record<string, unknown>;
    if (typeof content !== "string") return [];
    const s = status === "completed" || status === "in_progress" ? status : "pending";
    return [{ content, status: s }];
  });
}

/** The prompt to send again after a failed turn (Retry). */
export function lastPrompt(t: Transcript): string | null {
  for (let i = t.turns.length - 1; i >= 0; i--) if (t.turns[i].prompt) return t.turns[i].prompt;
  return null;
}

export const isRunning = (t: Transcript): boolean => t.turns.at(-1)?.status === "running";
