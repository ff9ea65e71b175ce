/** Tells the timeline what a turn over its prompt budget offers: "offered 24 of 518 extensions". */
import type { EngineDeps, AgentState } from "../state.ts";
import type { TurnOffer } from "./offer.ts";

/** Once when chosen, again when a search added to it; nothing when nothing was cut. */
export function reportOffer(
  deps: Pick<EngineDeps, "emit">,
  state: Pick<AgentState, "stats">,
  offer: TurnOffer,
): void {
  if (!offer.cut) return;
  const now = `${offer.size}/${offer.candidates.size}/${offer.searched}`;
  if (now === offer.reported) return;
  offer.reported = now;
  deps.emit({
    type: "extensions_offered",
    offered: offer.size,
    total: offer.candidates.size,
    searched: offer.searched,
    budget: offer.budget,
    tokens: offer.tokens(),
    turn: state.stats.interactions,
  });
}
