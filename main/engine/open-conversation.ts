/**
 * Opening a conversation (`Engine.open()`): a saved session resumed with its messages, agent,
 * once-state and output style, or a new one whose file is created once the model is known.
 */
import type { EventSink } from "../turn/events.ts";
import { AgentSession } from "../turn/loop.ts";
import type { EngineDeps } from "../turn/state.ts";
import { OUTPUT_STYLE_KEY, restoreOutputStyle } from "../extensions/output-styles/command.ts";
import type { QuestionPort } from "../host/questions.ts";
import { Conversation } from "./conversation.ts";
import type { Engine, EngineOptions } from "./engine.ts";

export interface OpenRequest {
  /** A saved session to resume (an id or its prefix); missing: a new one. */
  sessionId?: string;
  agent?: string;
  emit: EventSink;
  /** Who approves this conversation's tool calls (the UI client that owns it); else the engine's. */
  questions?: QuestionPort;
}

/** What opening needs besides the engine's public side. */
export interface OpenContext {
  opts: Pick<EngineOptions, "resolveModel" | "warn">;
  /** The deps a turn of session `id` runs with. */
  deps(emit: EventSink, id: string, questions: QuestionPort | undefined): EngineDeps;
}

export async function openConversation(
  engine: Engine,
  req: OpenRequest,
  ctx: OpenContext,
): Promise<Conversation> {
  // MCP servers start while the user types; their tools join the turn when they are ready.
  engine.mcp.startInBackground();
  if (req.sessionId) return resume(engine, req, req.sessionId, ctx);
  const agent = engine.agent(req.agent ?? "default");
  const resolved = await ctx.opts.resolveModel(agent);
  const id = await engine.store.create({
    workdir: engine.homes.workdir,
    agent: agent.name,
    provider: resolved.provider.name,
    model: resolved.model,
  });
  const session = new AgentSession(ctx.deps(req.emit, id, req.questions), {
    agent: agent.name,
    sessionId: id,
  });
  session.state.resolved = resolved;
  return new Conversation(engine, session, undefined, req.questions);
}

async function resume(
  engine: Engine,
  req: OpenRequest,
  sessionId: string,
  ctx: OpenContext,
): Promise<Conversation> {
  const id = await engine.store.resolve(sessionId);
  const saved = await engine.store.load(id);
  for (const w of saved.warnings) ctx.opts.warn(w);
  engine.plugins?.once.restore(id, saved.state);
  const agentName = req.agent ?? (engine.agents.has(saved.agent) ? saved.agent : "default");
  engine.agent(agentName);
  const session = new AgentSession(ctx.deps(req.emit, id, req.questions), {
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
    ctx.opts.warn,
  );
  return new Conversation(
    engine,
    session,
    { provider: saved.provider, model: saved.model },
    req.questions,
  );
}
