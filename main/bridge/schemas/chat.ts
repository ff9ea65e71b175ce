/**
 * Schemas of the `chat/*` calls added beside contract.ts's (the plan keeps each namespace's new
 * schemas in its own file). Plain zod, no Node: the renderer bundles this file.
 */
import { z } from "zod";
import { AgentEvent } from "../../core/events.ts";

/**
 * A conversation's whole display history, as the same events `chat/send` streams (final
 * `assistant` and `thinking` texts instead of deltas; each prompt as `user_message`), in order.
 * While a turn runs (`running`), its events so far follow, streaming pieces included, so a
 * window joining mid-turn shows it as it stands; `seq`: the number of the last event included
 * (`chat/event`s numbered higher come after it).
 */
export const ChatHistory = {
  request: z.strictObject({ conversationId: z.string().min(1) }),
  response: z.strictObject({
    events: z.array(AgentEvent),
    running: z.boolean(),
    seq: z.number().int().nonnegative(),
  }),
};

/**
 * One event of a conversation, to its windows other than the one whose `chat/send` streams it
 * (that one has it as a chunk): another window's turn, an agent switch from the picker.
 * `seq` numbers the conversation's events from 1 since it was opened behind the bridge.
 */
export const ChatEventPayload = z.strictObject({
  conversationId: z.string().min(1),
  seq: z.number().int().positive(),
  event: AgentEvent,
});
