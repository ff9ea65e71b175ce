/**
 * Schemas of the `chat/*` calls added beside contract.ts's (the plan keeps each namespace's new
 * schemas in its own file). Plain zod, no Node: the renderer bundles this file.
 */
import { z } from "zod";
import { AgentEvent } from "../../conversation/events.ts";

/**
 * A conversation's whole display history, as the same events `chat/send` streams (final
 * `assistant` and `thinking` texts instead of deltas; each prompt as `user_message`), in order.
 */
export const ChatHistory = {
  request: z.strictObject({ conversationId: z.string().min(1) }),
  response: z.strictObject({ events: z.array(AgentEvent) }),
};
