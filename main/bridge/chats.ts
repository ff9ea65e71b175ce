/**
 * The conversations open behind the bridge. A client opens (or joins) one with `chat/open`; only
 * its clients may send to it, stop it, or hear its questions and events. A conversation whose
 * clients have all gone is stopped and closed (its session file stays, to be resumed).
 *
 * Every event of a conversation reaches all its windows: the one whose `chat/send` runs the turn
 * as chunks, the others as `chat/event`s (numbered, so a window that joins mid-turn can line
 * them up with `chat/history`, which answers from the history kept here).
 */
import type { AgentEvent } from "../core/events.ts";
import { isHistoryEvent } from "../core/history.ts";
import type { Conversation, TurnResult } from "../engine/conversation.ts";
import type { OpenRequest } from "../engine/open-conversation.ts";
import { ProblemError } from "../host/problem.ts";
import type { ChatOpened, ChatOutcome } from "./contract.ts";
import type { BridgeQuestions } from "./questions.ts";
import { toConversation, type BridgeService, type ClientId } from "./service.ts";

interface RunningTurn {
  /** The client whose `chat/send` runs it, and its stream. */
  client: ClientId;
  chunk(event: AgentEvent): void;
  stopping: boolean;
  ended: Promise<unknown>;
  /** Where the turn starts in the conversation's history. */
  base: number;
  /** The turn's events so far, streaming pieces merged (what a window joining now is shown). */
  log: AgentEvent[];
}

interface OpenChat {
  conversation: Conversation;
  /** The running `chat/send`, if any. */
  turn: RunningTurn | null;
  /** The display history (the saved one when opened, then followed live): `chat/history`. */
  history: AgentEvent[];
  /** The number of the last event (`chat/event`'s `seq`). */
  seq: number;
}

type Service = Pick<BridgeService, "join" | "isMember" | "recipients" | "onDisconnect" | "emit">;

/** What the open conversations ask of the engine. */
export interface ChatsPort {
  /** A saved session's full id from its id or a unique prefix. */
  resolveSession(id: string): Promise<string>;
  /** A new conversation or a saved one. */
  open(request: OpenRequest): Promise<Conversation>;
  /** A saved session's display history. */
  history(sessionId: string): Promise<AgentEvent[]>;
}

export class Chats {
  private readonly open = new Map<string, OpenChat>();
  /** Sessions being opened, so two clients opening one session share it. */
  private readonly opening = new Map<string, Promise<OpenChat>>();
  private readonly engine: ChatsPort;
  private readonly service: Service;
  private readonly questions: BridgeQuestions;

  constructor(engine: ChatsPort, service: Service, questions: BridgeQuestions) {
    this.engine = engine;
    this.service = service;
    this.questions = questions;
    service.onDisconnect(() => void this.closeAbandoned());
  }

  async openFor(
    client: ClientId,
    request: { sessionId?: string; agent?: string },
  ): Promise<ChatOpened> {
    let chat: OpenChat;
    if (request.sessionId) {
      const id = await this.engine.resolveSession(request.sessionId);
      chat = this.open.get(id) ?? (await this.shared(id, () => this.start(id, request.agent)));
    } else {
      chat = await this.start(undefined, request.agent);
    }
    const id = chat.conversation.id;
    this.service.join(client, id);
    if (!this.service.isMember(client, id)) {
      // The window closed while the session was opening.
      void this.closeAbandoned();
      throw new ProblemError({ source: "chat/open", title: "the window closed meanwhile" });
    }
    const state = chat.conversation.session.state;
    return {
      conversationId: chat.conversation.id,
      agent: state.agent.name,
      title: state.title,
      resumed: request.sessionId !== undefined,
    };
  }

  /** One prompt or command; `chunk` gets the agent's events; `signal` (cancel) stops the turn. */
  async send(
    client: ClientId,
    request: { conversationId: string; text: string },
    ctx: { signal: AbortSignal; chunk(event: AgentEvent): void },
  ): Promise<ChatOutcome> {
    let chat = this.joined(client, request.conversationId, "chat/send");
    // A turn that was told to stop ends in a moment (what was said is being saved): wait for it.
    while (chat.turn?.stopping) {
      await chat.turn.ended;
      chat = this.joined(client, request.conversationId, "chat/send");
    }
    if (ctx.signal.aborted) throw new Error("cancelled before it started");
    if (chat.turn)
      throw new ProblemError({
        source: "chat/send",
        title: "a turn is already running in this conversation",
        suggestion: "wait for it to end, or stop it (chat/stop)",
      });
    const turn: RunningTurn = {
      client,
      chunk: ctx.chunk,
      stopping: false,
      ended: Promise.resolve(),
      base: chat.history.length,
      log: [],
    };
    chat.turn = turn; // before submit: its first events must find their way
    const running = chat.conversation.submit(request.text);
    turn.ended = running.catch(() => undefined);
    const current = chat;
    const stop = () => this.stopTurn(current);
    ctx.signal.addEventListener("abort", stop, { once: true });
    try {
      return outcome(await running);
    } finally {
      ctx.signal.removeEventListener("abort", stop);
      if (current.turn === turn) current.turn = null;
    }
  }

  /** What the conversation showed so far, saved turns included, and the running turn as it stands. */
  history(
    client: ClientId,
    conversationId: string,
  ): { events: AgentEvent[]; running: boolean; seq: number } {
    const chat = this.joined(client, conversationId, "chat/history");
    const turn = chat.turn;
    const events = turn ? [...chat.history.slice(0, turn.base), ...turn.log] : [...chat.history];
    return { events, running: turn !== null, seq: chat.seq };
  }

  stop(client: ClientId, conversationId: string): { stopped: boolean } {
    const chat = this.joined(client, conversationId, "chat/stop");
    if (!chat.turn || chat.turn.stopping) return { stopped: false };
    this.stopTurn(chat);
    return { stopped: true };
  }

  private stopTurn(chat: OpenChat): void {
    if (chat.turn) chat.turn.stopping = true;
    chat.conversation.stop();
  }

  /** A conversation this client opened, for calls that change it (model and agent pickers). */
  member(
    client: ClientId,
    conversationId: string,
    source: string,
  ): { conversation: Conversation; busy: boolean } {
    const chat = this.joined(client, conversationId, source);
    return { conversation: chat.conversation, busy: chat.turn !== null };
  }

  /** A rename from the sessions list reaches the open conversation too (its next save keeps it). */
  retitle(conversationId: string, title: string): void {
    const chat = this.open.get(conversationId);
    if (chat) chat.conversation.session.state.title = title;
  }

  isOpen(conversationId: string): boolean {
    return this.open.has(conversationId);
  }

  /** Closes it in every window (its session is being deleted): the turn stops, what was said is saved. */
  async closeEverywhere(conversationId: string): Promise<boolean> {
    await this.opening.get(conversationId)?.catch(() => undefined);
    if (!this.open.has(conversationId)) return false;
    await this.close(conversationId);
    return true;
  }

  /** Host shutdown: every turn stopped, every conversation closed. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.close(id)));
  }

  private joined(client: ClientId, conversationId: string, source: string): OpenChat {
    const chat = this.open.get(conversationId);
    if (!chat || !this.service.isMember(client, conversationId))
      throw new ProblemError({
        source,
        title: `conversation ${conversationId} is not open in this window`,
        suggestion: "open it with chat/open first",
      });
    return chat;
  }

  private async shared(id: string, start: () => Promise<OpenChat>): Promise<OpenChat> {
    const existing = this.opening.get(id);
    if (existing) return existing;
    const started = start().finally(() => this.opening.delete(id));
    this.opening.set(id, started);
    return started;
  }

  private async start(sessionId: string | undefined, agent: string | undefined): Promise<OpenChat> {
    const opened: { chat?: OpenChat } = {};
    const conversation = await this.engine.open({
      sessionId,
      agent,
      emit: (event) => opened.chat && this.deliver(opened.chat, event),
      questions: this.questions.port(() => toConversation(conversation.id)),
    });
    let history: AgentEvent[] = [];
    try {
      // Read once here, before any turn can add to it; followed live from now on.
      if (sessionId) history = await this.engine.history(conversation.id);
    } catch (err) {
      await conversation.close();
      throw err;
    }
    const chat: OpenChat = { conversation, turn: null, history, seq: 0 };
    opened.chat = chat;
    this.open.set(conversation.id, chat);
    return chat;
  }

  /** One event of the conversation: kept for `chat/history`, sent to every window on it. */
  private deliver(chat: OpenChat, event: AgentEvent): void {
    const seq = ++chat.seq;
    if (isHistoryEvent(event)) chat.history.push(event);
    const turn = chat.turn;
    if (turn) {
      logEvent(turn.log, event);
      turn.chunk(event);
    }
    const others = toConversation(chat.conversation.id, turn?.client);
    // Validating each delta again costs: only when some other window is there to see it.
    if (this.service.recipients(others).length === 0) return;
    this.service.emit(others, "chat/event", { conversationId: chat.conversation.id, seq, event });
  }

  private async closeAbandoned(): Promise<void> {
    const abandoned = [...this.open.keys()].filter(
      (id) => this.service.recipients(toConversation(id)).length === 0,
    );
    await Promise.all(abandoned.map((id) => this.close(id)));
  }

  private async close(id: string): Promise<void> {
    const chat = this.open.get(id);
    if (!chat) return;
    this.open.delete(id);
    this.stopTurn(chat);
    await chat.turn?.ended;
    await chat.conversation.close();
  }
}

const LOG_OUTPUT_CHARS = 30_000;

/** Adds an event to a turn's log, merging a streamed piece into the piece before it. */
function logEvent(log: AgentEvent[], event: AgentEvent): void {
  const last = log.at(-1);
  if (
    last &&
    (event.type === "assistant_delta" || event.type === "thinking_delta") &&
    last.type === event.type
  ) {
    log[log.length - 1] = { type: event.type, text: last.text + event.text };
    return;
  }
  if (last?.type === "tool_output" && event.type === "tool_output" && last.id === event.id) {
    // One piece per run of output, its newest LOG_OUTPUT_CHARS kept (as the card keeps them).
    let text = last.text + event.text;
    let dropped = (last.dropped ?? 0) + (event.dropped ?? 0);
    if (text.length > LOG_OUTPUT_CHARS) {
      dropped += text.length - LOG_OUTPUT_CHARS;
      text = text.slice(text.length - LOG_OUTPUT_CHARS);
    }
    log[log.length - 1] = {
      type: "tool_output",
      id: event.id,
      text,
      ...(dropped > 0 ? { dropped } : {}),
    };
    return;
  }
  log.push(event);
}

function outcome(result: TurnResult): ChatOutcome {
  const run = result.outcome;
  return {
    status: run?.status ?? null,
    text: run?.text ?? "",
    command:
      result.kind === "command"
        ? { name: result.name, output: result.output, silent: result.silent }
        : null,
    error: run?.error
      ? { source: "model", title: run.error.message, cause: run.error.errorType || undefined }
      : null,
  };
}
