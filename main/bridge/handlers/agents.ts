/**
 * `agents/*`: the agent picker. Switching an open conversation goes through the same path as
 * `/agent NAME` (AgentSession.switchAgent: the session file records it, onAgentSwitch hooks
 * fire); without a conversation it sets the agent new chats start with.
 */
import type { AgentConfig } from "../../agents/definition.ts";
import type { AppSettingsStore } from "../../config/app-settings.ts";
import { ProblemError } from "../../host/problem.ts";
import type { Chats } from "../chats.ts";
import { EVERYONE, type BridgeService, type CallHandlers } from "../service.ts";

/** What the agent picker asks of the engine. */
export interface AgentsPort {
  /** Every agent serving now. */
  agents(): Iterable<AgentConfig>;
  hasAgent(name: string): boolean;
  /** The agent named; unknown: an error listing the known ones. */
  agent(name: string): AgentConfig;
}

export function agentHandlers(
  port: AgentsPort,
  chats: Chats,
  settings: AppSettingsStore,
  service: Pick<BridgeService, "emit">,
): Pick<CallHandlers, "agents/list" | "agents/select"> {
  /** The saved default, if it still exists (its file may have been removed). */
  const defaultAgent = async () => {
    const name = (await settings.read()).defaultAgent;
    return port.hasAgent(name) ? name : "default";
  };
  return {
    "agents/list": async ({ conversationId }, { client }) => {
      const current = conversationId
        ? chats.member(client, conversationId, "agents/list").conversation.session.state.agent.name
        : await defaultAgent();
      const agents = [...port.agents()]
        .map((a) => ({
          name: a.name,
          description: a.description,
          model: a.provider ? `${a.provider}${a.model ? ` · ${a.model}` : ""}` : (a.model ?? null),
        }))
        .sort((a, b) =>
          a.name === "default" ? -1 : b.name === "default" ? 1 : a.name.localeCompare(b.name),
        );
      return { agents, current };
    },
    "agents/select": async ({ conversationId, agent }, { client }) => {
      port.agent(agent); // unknown: one line listing the known ones
      if (!conversationId) {
        await settings.update({ defaultAgent: agent });
        service.emit(EVERYONE, "settings/changed", { section: "agents" });
        return { agent, scope: "default" };
      }
      const { conversation, busy } = chats.member(client, conversationId, "agents/select");
      if (busy)
        throw new ProblemError({
          source: "agents/select",
          title: "a turn is running in this conversation",
          suggestion: "wait for it to end (or stop it), then switch the agent",
        });
      await conversation.session.switchAgent(agent, "user");
      return { agent, scope: "conversation" };
    },
  };
}

/** `chat/open` for a new conversation without an agent gets the default picked in the app. */
export function withDefaultAgent<H extends Pick<CallHandlers, "chat/open">>(
  handlers: H,
  port: Pick<AgentsPort, "hasAgent">,
  settings: AppSettingsStore,
): H {
  const open = handlers["chat/open"];
  const wrapped: CallHandlers["chat/open"] = async (request, ctx) => {
    if (request.sessionId || request.agent) return open(request, ctx);
    const name = (await settings.read()).defaultAgent;
    return open(port.hasAgent(name) ? { ...request, agent: name } : request, ctx);
  };
  return { ...handlers, "chat/open": wrapped };
}
