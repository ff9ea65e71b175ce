/**
 * What enters and leaves a session's history besides the model's own messages: a message
 * appended, hook injections (held to the window's share, hook-context.ts), a message put before
 * the turn's prompt, ejectable messages dropped once seen. Each change goes to the session file
 * as it is made to the history.
 */
import { makeMessage, type Message } from "../core/message.ts";
import { fitToWindow } from "./hook-context.ts";
import type { Injection } from "./hooks/types.ts";
import type { AgentState, EngineDeps } from "./state.ts";

/** The session whose history is edited. */
export interface HistoryHost {
  readonly state: AgentState;
  readonly deps: EngineDeps;
}

export function appendMessage(h: HistoryHost, message: Message): void {
  h.state.messages.push(message);
  h.deps.session?.appendMessage(message);
}

export function injectMessages(h: HistoryHost, arrived: readonly Injection[]): void {
  const { injections, notice } = fitToWindow(arrived, h.state);
  if (notice) h.deps.emit({ type: "notice", source: "engine", text: notice });
  for (const inj of injections) {
    const message = makeMessage(inj.role, inj.content, {
      kind: "synthetic",
      source: inj.source,
      eject: inj.eject || undefined,
    });
    if (inj.beforePrompt) insertBeforePrompt(h, message);
    else appendMessage(h, message);
    h.deps.emit({ type: "injected", source: inj.source, role: inj.role, text: inj.content });
  }
}

/**
 * Puts a message just before the turn's prompt (the last normal user message), so the model
 * reads it first. The session file is append-only: the prompt and what follows it leave and
 * come back after the message, a few short records.
 */
function insertBeforePrompt(h: HistoryHost, message: Message): void {
  const messages = h.state.messages;
  let at = messages.length - 1;
  while (at >= 0 && !(messages[at].role === "user" && messages[at].kind === "normal")) at--;
  if (at < 0) return appendMessage(h, message);
  const tail = messages.splice(at);
  h.deps.session?.removeMessages(tail.map((m) => m.id));
  appendMessage(h, message);
  for (const m of tail) appendMessage(h, m);
}

/** Ejectable messages leave history once a model call has seen them. */
export function ejectSeen(h: HistoryHost, seen: ReadonlySet<string>): void {
  const gone = h.state.messages.filter((m) => m.eject && seen.has(m.id)).map((m) => m.id);
  if (gone.length === 0) return;
  const drop = new Set(gone);
  h.state.messages = h.state.messages.filter((m) => !drop.has(m.id));
  h.deps.session?.removeMessages(gone);
}
