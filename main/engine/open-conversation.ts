/**
 * Opening a conversation (`Engine.open()`): a saved session resumed with its messages, agent,
 * once-state and output style, or a new one whose file is created once the model is known.
 */
import type { EventSink } from "../turn/events.ts";
import { AgentSession } from "../turn/loop.ts";
import type { EngineDeps } from "../turn/state.ts";
import { OUTPUT_STYLE_KEY, restoreOutputStyle } from "../extensions/output-styles/command.ts";
import type { QuestionPort } from "../host/questions.ts";
import type { AgentConfig } from "../agents/definition.ts";
import type { OutputStyle } from "../extensions/output-styles/styles.ts";
import type { Loaded } from "../config/frontmatter-fields.ts";
import type { SessionStore } from "../sessions/store.ts";
import { Conversation, type ConversationPort } from "./conversation.ts";
import type { EngineOptions } from "./options.ts";

export interface OpenRequest {
  /** A saved session to resume (an id or its prefix); missing: a new one. */
  sessionId?: string;
  agent?: string;
  emit: EventSink;
  /** Who approves this conversation's tool calls (the UI client that owns it); else the engine's. */
  questions?: QuestionPort;
  /**
   * Open it even with no model to be found (a slash command needs none); a turn that does need
   * one looks again and fails there. Otherwise that failure refuses the conversation.
   */
  modelOptional?: boolean;
}

/** What opening a conversation asks of the engine (Engine builds it). */
export interface OpenPort extends ConversationPort, Pick<EngineOptions, "resolveModel" | "warn"> {
  readonly store: Pick<SessionStore, "create" | "resolve" | "load">;
  /** The agent by name; throws one line when it is unknown or held back. */
  agent(name: string): AgentConfig;
  hasAgent(name: string): boolean;
  /** Plugins' once-state as the saved session left it. */
  restoreOnce(sessionId: string, state: Readonly<Record<string, unknown>>): void;
  outputStyles(): Loaded<OutputStyle>;
  /** The deps a turn of session `id` runs with. */
  deps(emit: EventSink, id: string, questions: QuestionPort | undefined): EngineDeps;
}

export async function openConversation(engine: OpenPort, req: OpenRequest): Promise<Conversation> {
  // MCP servers start while the user types; their tools join the turn when they are ready.
  engine.startMcp();
  if (req.sessionId) return resume(engine, req, req.sessionId);
  const agent = engine.agent(req.agent ?? "default");
  const resolved = await engine
    .resolveModel(agent)
    .catch((err: unknown) => (req.modelOptional ? null : Promise.reject(err)));
  const id = await engine.store.create({
    workdir: engine.workdir,
    agent: agent.name,
    provider: resolved?.provider.name ?? "",
    model: resolved?.model ?? "",
  });
  const session = new AgentSession(engine.deps(req.emit, id, req.questions), {
    agent: agent.name,
    sessionId: id,
  });
  session.state.resolved = resolved;
  return new Conversation(engine, session, undefined, req.questions);
}

async function resume(
  engine: OpenPort,
  req: OpenRequest,
  sessionId: string,
): Promise<Conversation> {
  const id = await engine.store.resolve(sessionId);
  const saved = await engine.store.load(id);
  for (const w of saved.warnings) engine.warn(w);
  engine.restoreOnce(id, saved.state);
  const agentName = req.agent ?? (engine.hasAgent(saved.agent) ? saved.agent : "default");
  engine.agent(agentName);
  const session = new AgentSession(engine.deps(req.emit, id, req.questions), {
    agent: agentName,
    sessionId: id,
    title: saved.title,
    messages: saved.messages,
    todos: saved.todos,
    stats: saved.stats ?? undefined,
  });
  restoreOutputStyle(
    session,
    saved.state[OUTPUT_STYLE_KEY],
    () => engine.outputStyles(),
    engine.warn,
  );
  return new Conversation(
    engine,
    session,
    { provider: saved.provider, model: saved.model },
    req.questions,
  );
}
