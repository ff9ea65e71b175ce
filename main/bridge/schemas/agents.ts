/** `agents/*`: the agents a conversation can run as, and switching (onAgentSwitch hooks fire). */
import { z } from "zod";

export const AgentItem = z.strictObject({
  name: z.string(),
  description: z.string(),
  /** The agent's own provider/model, when it names one. */
  model: z.string().nullable(),
});

export const AgentsList = {
  request: z.strictObject({ conversationId: z.string().min(1).optional() }),
  response: z.strictObject({
    agents: z.array(AgentItem),
    /** The conversation's agent, else the one a new conversation starts with. */
    current: z.string(),
  }),
};

/** With `conversationId`: switch that conversation (as /agent does); without: new ones start with it. */
export const AgentsSelect = {
  request: z.strictObject({
    conversationId: z.string().min(1).optional(),
    agent: z.string().min(1, "agent: required"),
  }),
  response: z.strictObject({ agent: z.string(), scope: z.enum(["conversation", "default"]) }),
};
