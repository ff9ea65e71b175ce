/**
 * What the model would receive for a recorded turn, built by the real turn loop (AgentSession:
 * beforeChat → transformMessages → request) with the hooks given and a provider that records the
 * first request and stops the turn there. No model is called, nothing is saved or executed.
 */
import type { HookRegistry } from "../../turn/hooks/types.ts";
import { AgentSession } from "../../turn/loop.ts";
import type { EngineDeps } from "../../turn/state.ts";
import type { AgentEvent } from "../../core/events.ts";
import type { Message } from "../../core/message.ts";
import type { Engine } from "../engine.ts";
import type { ChatRequest, Provider } from "../../providers/types.ts";
import type { LoadedSession } from "../../sessions/store.ts";

export interface RecordedTurn {
  /** 0-based among the session's prompts. */
  index: number;
  text: string;
  at: string;
}

export interface RequestView {
  system: string;
  messages: { role: string; content: string; source?: string }[];
  tools: { name: string; description: string }[];
  /** Notices the hooks gave (display only, not sent). */
  notices: string[];
}

/** The prompts a person typed, in order (injected and summary messages are not turns). */
export function recordedTurns(session: Pick<LoadedSession, "messages">): RecordedTurn[] {
  return promptIndexes(session.messages).map((i, index) => ({
    index,
    text: session.messages[i].content,
    at: session.messages[i].createdAt,
  }));
}

function promptIndexes(messages: readonly Message[]): number[] {
  const out: number[] = [];
  messages.forEach((m, i) => {
    if (m.role === "user" && m.kind === "normal") out.push(i);
  });
  return out;
}

const ASSUMED_CONTEXT = 128_000;

class StopAfterRequest extends Error {
  override name = "AbortError";
}

export async function requestForTurn(
  engine: Engine,
  session: LoadedSession,
  turn: number,
  hooks: HookRegistry,
): Promise<RequestView> {
  const prompts = promptIndexes(session.messages);
  const at = prompts[turn];
  if (at === undefined)
    throw new Error(
      `session ${session.id} has ${prompts.length} recorded prompts; there is no turn ${turn + 1}`,
    );
  const notices: string[] = [];
  let captured: ChatRequest | null = null;
  let agentSession: AgentSession | null = null;
  const provider: Provider = {
    name: "replay",
    kind: "openai-compatible",
    baseUrl: "",
    // eslint-disable-next-line require-yield -- it records the request and stops the turn
    async *chat(req) {
      captured = req;
      agentSession?.stop();
      throw new StopAfterRequest("replay: request recorded");
    },
    listModels: async () => [],
    modelInfo: async (model) => info(model),
  };
  const info = (model: string) => ({
    name: model,
    family: "",
    parameterCount: 0,
    contextLength: ASSUMED_CONTEXT,
    capabilities: ["tools"],
  });
  const deps: EngineDeps = engine.dryRunDeps({
    hooks,
    resolveModel: async () => ({ provider, model: session.model, info: info(session.model) }),
    emit: (event: AgentEvent) => {
      if (event.type === "notice") notices.push(`${event.source}: ${event.text}`);
    },
  });
  const agent = engine.agents.has(session.agent) ? session.agent : "default";
  agentSession = new AgentSession(deps, {
    agent,
    sessionId: `replay-${session.id}`,
    title: session.title,
    messages: structuredClone(session.messages.slice(0, at)),
    todos: structuredClone(session.todos),
    stats: session.stats ? structuredClone(session.stats) : undefined,
  });
  await agentSession.send(session.messages[at].content);
  const request = captured as ChatRequest | null;
  if (!request) {
    // A hook skipped the call (request.skip), so the model would have received nothing.
    return { system: "", messages: [], tools: [], notices: [...notices, "(no model call)"] };
  }
  return {
    system: request.system,
    messages: request.messages.map((m) => ({
      role: m.role,
      content: m.content,
      ...(m.source ? { source: m.source } : {}),
    })),
    tools: request.tools.map((t) => ({ name: t.name, description: t.description })),
    notices: notices.filter((n) => !n.startsWith("engine: Stopped")),
  };
}

/** The request as one document, the same layout for both sides of a diff. */
export function requestText(view: RequestView): string {
  const parts = [`# System prompt\n\n${view.system}`];
  parts.push(
    `# Tools offered (${view.tools.length})\n\n` +
      view.tools.map((t) => `- ${t.name}: ${t.description.split("\n")[0]}`).join("\n"),
  );
  parts.push(
    `# Messages (${view.messages.length})\n\n` +
      view.messages
        .map((m) => `## ${m.role}${m.source ? ` (from ${m.source})` : ""}\n\n${m.content}`)
        .join("\n\n"),
  );
  if (view.notices.length > 0)
    parts.push(`# Notices (not sent)\n\n${view.notices.map((n) => `- ${n}`).join("\n")}`);
  return parts.join("\n\n") + "\n";
}
