/**
 * The model a reopened session goes on with, for every host (the app and `islet serve` through
 * chat/open, `islet run --session`): the one it last used — picked for it, or the one it ran
 * with — while its provider can still be resolved; else the default. An agent that names its
 * own provider keeps choosing for itself.
 */
import type { Conversation, Engine } from "./engine.ts";

/**
 * Sets the conversation's model to the one its session last used. Resolves with why that model
 * cannot be used now (the default stays), or null: restored, or nothing to restore (a new
 * session, an agent with its own provider, a model already chosen, an engine without models).
 */
export async function restoreSessionModel(
  engine: Engine,
  conversation: Conversation,
): Promise<string | null> {
  const state = conversation.session.state;
  const saved = conversation.savedModel;
  if (!engine.models || state.resolved || state.agent.provider) return null;
  if (!saved.provider || !saved.model) return null;
  try {
    const resolved = await engine.models.resolveExact(state.agent, saved.provider, saved.model);
    // Chosen meanwhile (the picker): that choice is newer.
    if (!state.resolved) state.resolved = resolved;
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * After a turn: the model it ran on becomes the session's last model when it is another one
 * (an explicit --model, or the default after the saved one was gone), so the next resume uses it.
 */
export async function recordSessionModel(
  engine: Engine,
  conversation: Conversation,
): Promise<void> {
  const resolved = conversation.session.state.resolved;
  const saved = conversation.savedModel;
  // A new session's file names its model from the start.
  if (!resolved || !saved.provider) return;
  const provider = resolved.provider.name;
  if (provider === saved.provider && resolved.model === saved.model) return;
  engine.store.append(conversation.id, { t: "model", provider, model: resolved.model });
  await engine.store.flush(conversation.id);
}
