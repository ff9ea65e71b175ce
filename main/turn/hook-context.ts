/**
 * What hooks add to the conversation at one point (SessionStart's context, a plugin's message),
 * held to a share of the model's window. Three Claude Code plugins' SessionStart hooks add ~7,300
 * characters together: nearly a quarter of an 8k window and most of a 4k one, before the user's
 * first word, and every plugin more with one adds its own. So when what arrives at once is more
 * than HOOK_CONTEXT_SHARE of the window, each text keeps an equal part of that share (a short one
 * keeps all of itself, and what it leaves goes to the others), cut at a line where one is near,
 * and says how much was left out. The user is told once, by a notice naming each text cut. An
 * agent's or its provider's `hook_context_budget` changes the share, as `extensions_budget` does
 * the extensions' (turn/offer/choose.ts).
 */
import { CHARS_PER_TOKEN } from "./tokens.ts";
import type { Injection } from "./hooks/types.ts";
import type { AgentState } from "./state.ts";

/** The share of the window what hooks add at one point may take (percent), unless set. */
export const HOOK_CONTEXT_SHARE = 25;

/**
 * `arrived` fitted to the session's window at its agent's share (else its provider's, else
 * HOOK_CONTEXT_SHARE), with the notice naming what was cut, if anything was.
 */
export function fitToWindow(
  arrived: readonly Injection[],
  state: Pick<AgentState, "resolved" | "agent">,
): { injections: Injection[]; notice?: string } {
  const window = state.resolved?.info.contextLength ?? 0;
  const share =
    state.agent.hookContextBudget ?? state.resolved?.hookContextBudget ?? HOOK_CONTEXT_SHARE;
  const { injections, cuts } = fitHookContext(arrived, window, share);
  return cuts.length > 0 ? { injections, notice: cutsNotice(cuts, window, share) } : { injections };
}

/** A text cut to fit: where it came from, and its length before and after. */
export interface HookContextCut {
  source: string;
  from: number;
  to: number;
}

/**
 * `injections` with their texts cut to fit `share` percent of `windowTokens` (unknown, 0: left
 * whole).
 */
export function fitHookContext(
  injections: readonly Injection[],
  windowTokens: number,
  share = HOOK_CONTEXT_SHARE,
): { injections: Injection[]; cuts: HookContextCut[] } {
  const budget = Math.floor((windowTokens * share) / 100) * CHARS_PER_TOKEN;
  const sizes = injections.map((i) => i.content.length);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (windowTokens <= 0 || total <= budget) return { injections: [...injections], cuts: [] };
  const level = fairLevel(sizes, budget);
  const cuts: HookContextCut[] = [];
  const fitted = injections.map((inj) => {
    if (inj.content.length <= level) return inj;
    const content = cutText(inj.content, level);
    cuts.push({ source: inj.source, from: inj.content.length, to: content.length });
    return { ...inj, content };
  });
  return { injections: fitted, cuts };
}

/** The largest length L with the sum of min(size, L) within `budget` (water-filling). */
function fairLevel(sizes: readonly number[], budget: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let left = budget;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(left / (sorted.length - i));
    if (sorted[i] > share) return share;
    left -= sorted[i];
  }
  return Number.POSITIVE_INFINITY;
}

/** The head of `text` in at most `max` characters, the note of what was cut included. */
export function cutText(
  text: string,
  max: number,
  why = "to fit the model's context window",
): string {
  if (text.length <= max) return text;
  const note = (n: number) => `\n[… ${n} more characters of this text were cut ${why}]`;
  // The note's own length depends on the count; the longest count is the whole text's.
  const room = Math.max(0, max - note(text.length).length);
  let head = text.slice(0, room);
  // A whole line rather than half of one, unless that throws away more than a fifth.
  const line = head.lastIndexOf("\n");
  if (line >= room * 0.8) head = head.slice(0, line);
  // Not half of a character outside the basic plane (an emoji): a lone surrogate is not text.
  else if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return head + note(text.length - head.length);
}

/** The notice naming what was cut, for the person watching the turn. */
export function cutsNotice(
  cuts: readonly HookContextCut[],
  windowTokens: number,
  share = HOOK_CONTEXT_SHARE,
): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const each = cuts.map((c) => `${c.source} ${n(c.from)} → ${n(c.to)}`).join(", ");
  return `hook context cut to fit the ${n(windowTokens)}-token window: ${each} characters (what hooks add at once may take at most ${share}% of the window: hook_context_budget in providers.yaml or the agent)`;
}
