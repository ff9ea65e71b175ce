/**
 * Chooses what a user turn offers of the extensions, once per turn from the conversation so far
 * (so the same conversation gets the same requests and prompt caches stay warm):
 *
 * 1. everything, when it all fits the budget (the agent's `extensions_budget` percent of the
 *    window, else its provider's, else 10%; never more than the window leaves beside the rest of
 *    the request);
 * 2. otherwise, first what must be there (tools the agent's `tools` names, tools a running
 *    command's or skill's allowed-tools covers), then within the budget what the prompt or the
 *    agent names, what the conversation used lately, and what BM25 finds relevant to the latest
 *    prompts (ties by name), with SearchTools for the rest.
 */
import type { Message } from "../../core/message.ts";
import { KEEP_NONE, type ListedItem, type Listing } from "../../tools/listing.ts";
import { isletToolsOf, type ClaudeRule } from "../../tools/claude-rule.ts";
import { matchesToolPattern } from "../../tools/registry.ts";
import { toolSpec, type Tool } from "../../tools/types.ts";
import type { AgentState } from "../state.ts";
import { estimateMessage, estimateText, estimateTools } from "../tokens.ts";
import { candidateKey, catalog, isBudgeted, type Candidate } from "./catalog.ts";
import { listedSpec, offerAll, TurnOffer, type ChosenOffer } from "./offer.ts";
import { byScore, ranker, type Ranker } from "./rank.ts";
import { searchTool, searchToolTokens } from "./search-tool.ts";

/** The share of the window extensions may take when the agent does not say (percent). */
export const DEFAULT_EXTENSIONS_BUDGET = 10;

/** Items used lately that keep their place ahead of relevance (most recent first). */
const RECENT = 10;

export interface OfferInputs {
  state: AgentState;
  /** The agent's tools (before hooks disable any). */
  tools: readonly Tool[];
  /** Listings outside tools (the skills in the system prompt). */
  listings: readonly Listing[];
  /** The system prompt with its listings keeping only what `keep` keeps. */
  systemPrompt(keep: (item: ListedItem) => boolean): string;
}

/** The offer of the running user turn: chosen at its first model call, grown after. */
export function turnOffer(inputs: OfferInputs, current: ChosenOffer | undefined): ChosenOffer {
  const { state } = inputs;
  const turn = state.stats.interactions;
  if (!current || current.offer.turn !== turn) return choose(inputs, turn, current?.offer);
  if (current.offer.cut) {
    current.offer.adopt(catalog(inputs.tools, inputs.listings));
    // What a skill loaded in this turn allows joins the offer from the next call on.
    current.offer.add(pinned(state, current.offer.candidates));
  }
  return current;
}

function choose(inputs: OfferInputs, turn: number, previous?: TurnOffer): ChosenOffer {
  const { state, tools, listings } = inputs;
  const candidates = catalog(tools, listings);
  const window = state.resolved?.info.contextLength ?? 0;
  if (window <= 0 || candidates.size === 0) return { offer: offerAll(turn, candidates) };
  let all = 0;
  for (const c of candidates.values()) all += c.tokens;
  const share = Math.floor(
    (window *
      (state.agent.extensionsBudget ??
        state.resolved?.extensionsBudget ??
        DEFAULT_EXTENSIONS_BUDGET)) /
      100,
  );
  const rest = restOfRequest(inputs);
  const { framing, pluginTool } = fixedCosts(candidates, inputs);
  if (all + framing + pluginTool <= share && all <= window - rest)
    return { offer: offerAll(turn, candidates) };

  const rank = ranker(candidates);
  // SearchTools comes with the cut: its definition is paid from the room too.
  const search = searchToolTokens();
  // What the items themselves may take: the share less what comes with any cut.
  const room = Math.max(0, Math.min(share - framing - search, window - rest - search));
  const offer = new TurnOffer({
    turn,
    cut: true,
    budget: Math.min(share, window - rest),
    candidates,
    chosen: fill(
      room,
      candidates,
      withoutDisabled(state, candidates, pinned(state, candidates)),
      withoutDisabled(state, candidates, ordered(state, candidates, rank)),
      pluginTool,
    ),
    previous,
  });
  return { offer, search: searchTool(offer, rank) };
}

/**
 * What comes with the extensions whatever is chosen, by catalog (the same while nothing it lists
 * changed): the listings' own lines (their headings, "N more… SearchTools finds them"), paid from
 * the share so that it holds all the extensions cost; activate_plugin, which comes only with a
 * plugin offered, so the first one chosen pays for it.
 */
const fixed = new WeakMap<
  ReadonlyMap<string, Candidate>,
  { framing: number; pluginTool: number }
>();

function fixedCosts(
  candidates: ReadonlyMap<string, Candidate>,
  inputs: OfferInputs,
): { framing: number; pluginTool: number } {
  let costs = fixed.get(candidates);
  if (!costs) {
    costs = {
      framing: listingsFraming(inputs.listings, inputs.tools),
      pluginTool: extensionsOwnTools(inputs.tools),
    };
    fixed.set(candidates, costs);
  }
  return costs;
}

/**
 * Tokens the listings take with none of their items kept, but only for their extensions: the
 * prompt's (the skills' heading and its "N more…" line) whole, a tool's (Task) its "N more…"
 * line, its own description being there without any extension.
 */
function listingsFraming(listings: readonly Listing[], tools: readonly Tool[]): number {
  let n = 0;
  for (const listing of listings) n += estimateText(listing.text(KEEP_NONE));
  for (const tool of tools)
    if (tool.listing)
      n += Math.max(
        0,
        estimateText(tool.listing.text(KEEP_NONE)) -
          estimateText(tool.listing.text(KEEP_NONE, KEEP_NONE)),
      );
  return n;
}

/** Tokens of the tools that are there only because extensions are (activate_plugin). */
function extensionsOwnTools(tools: readonly Tool[]): number {
  const own = tools.filter((t) => t.forExtensions).map(toolSpec);
  return own.length > 0 ? estimateTools(own) : 0;
}

/** Tokens of the request without any extension item: prompt, fixed tools, messages. */
function restOfRequest(inputs: OfferInputs): number {
  const own = inputs.tools.filter((t) => !isBudgeted(t)).map((t) => listedSpec(t, KEEP_NONE));
  let n = estimateText(inputs.systemPrompt(KEEP_NONE)) + estimateTools(own);
  for (const m of inputs.state.messages) n += estimateMessage(m);
  return n;
}

/**
 * Pinned first (whatever they cost), then the rest in order while the budget lasts. The first
 * plugin chosen also pays for `pluginTool` (activate_plugin, offered only with a plugin).
 */
function fill(
  budget: number,
  candidates: ReadonlyMap<string, Candidate>,
  pins: readonly string[],
  order: readonly string[],
  pluginTool: number,
): Set<string> {
  const chosen = new Set<string>();
  let used = 0;
  let plugins = false;
  const cost = (key: string): number => {
    const c = candidates.get(key)!;
    return c.tokens + (c.kind === "plugin" && !plugins ? pluginTool : 0);
  };
  const take = (key: string): void => {
    used += cost(key);
    chosen.add(key);
    if (candidates.get(key)!.kind === "plugin") plugins = true;
  };
  for (const key of pins) take(key);
  for (const key of order) {
    if (chosen.has(key) || used + cost(key) > budget) continue;
    take(key);
  }
  return chosen;
}

/**
 * Leaves out the tools this turn may not call (what the running command disallows, what a hook
 * disabled before the turn's first call): offered, they would be taken away again and their
 * place in the budget lost.
 */
function withoutDisabled(
  state: AgentState,
  candidates: ReadonlyMap<string, Candidate>,
  keys: readonly string[],
): readonly string[] {
  const disabled = state.turnDisabledTools;
  if (disabled.length === 0) return keys;
  return keys.filter((key) => {
    const c = candidates.get(key)!;
    return c.kind !== "tool" || !disabled.some((p) => matchesToolPattern(c.name, p));
  });
}

/** Tools the agent's `tools` names (not a bare `*`) or a running command's or skill's rules cover. */
function pinned(state: AgentState, candidates: ReadonlyMap<string, Candidate>): string[] {
  const patterns = (state.agent.tools ?? []).filter((p) => p !== "*");
  const rules = state.turnPreApproved;
  const out: string[] = [];
  for (const c of candidates.values())
    if (
      c.kind === "tool" &&
      (patterns.some((p) => matchesToolPattern(c.name, p)) ||
        rules.some((r) => ruleNames(r, c.name)))
    )
      out.push(c.key);
  return out;
}

function ruleNames(rule: ClaudeRule, tool: string): boolean {
  return rule.tool.includes("*")
    ? rule.tool !== "*" && matchesToolPattern(tool, rule.tool)
    : isletToolsOf(rule).includes(tool);
}

/** Named by the prompt or the agent, then used lately, then by relevance. */
function ordered(
  state: AgentState,
  candidates: ReadonlyMap<string, Candidate>,
  rank: Ranker,
): string[] {
  const prompts = state.messages.filter((m) => m.role === "user" && m.kind === "normal");
  const latest = prompts.at(-1)?.content ?? "";
  const byName = [
    ...new Set([...named(latest, candidates), ...agentNamed(state.agent.systemPrompt, candidates)]),
  ].sort();
  const scores = rank.scores(latest);
  // Earlier prompts count half: the conversation's topic, not what is asked now.
  const earlier = prompts
    .slice(-3, -1)
    .map((m) => m.content)
    .join("\n");
  for (const [key, s] of rank.scores(earlier)) scores.set(key, (scores.get(key) ?? 0) + s / 2);
  return [...byName, ...recentlyUsed(state.messages, candidates), ...byScore(scores, candidates)];
}

/** What the agent's own prompt names, by catalog: the same prompt at every turn. */
const agentNames = new WeakMap<
  ReadonlyMap<string, Candidate>,
  { prompt: string; keys: string[] }
>();

function agentNamed(prompt: string, candidates: ReadonlyMap<string, Candidate>): string[] {
  const last = agentNames.get(candidates);
  if (last?.prompt === prompt) return last.keys;
  const keys = named(prompt, candidates);
  agentNames.set(candidates, { prompt, keys });
  return keys;
}

/** Keys of the candidates `text` names as words of their own (as `mentions` decides). */
function named(text: string, candidates: ReadonlyMap<string, Candidate>): string[] {
  if (text.length < 3) return [];
  const { byWord, other } = nameIndex(candidates);
  const out: string[] = [];
  for (const word of new Set(text.toLowerCase().match(WORDS)))
    out.push(...(byWord.get(word) ?? []));
  if (other.length > 0) {
    const mentioned = mentionsIn(text);
    for (const c of other) if (mentioned(c.name)) out.push(c.key);
  }
  return out;
}

/**
 * The catalog's names, by catalog: those made only of word characters by their lower case (a
 * text names one exactly when it is one of its words), the others to be looked for.
 */
const nameIndexes = new WeakMap<
  ReadonlyMap<string, Candidate>,
  { byWord: Map<string, string[]>; other: Candidate[] }
>();

function nameIndex(candidates: ReadonlyMap<string, Candidate>): {
  byWord: Map<string, string[]>;
  other: Candidate[];
} {
  let found = nameIndexes.get(candidates);
  if (!found) {
    found = { byWord: new Map(), other: [] };
    for (const c of candidates.values()) {
      if (c.name.length < 3) continue;
      const lower = c.name.toLowerCase();
      if (!ALL_WORD.test(lower)) found.other.push(c);
      else found.byWord.set(lower, [...(found.byWord.get(lower) ?? []), c.key]);
    }
    nameIndexes.set(candidates, found);
  }
  return found;
}

/** Items the conversation called (tools), loaded (skills) or ran (agents), latest first. */
function recentlyUsed(
  messages: readonly Message[],
  candidates: ReadonlyMap<string, Candidate>,
): string[] {
  const out: string[] = [];
  for (let i = messages.length - 1; i >= 0 && out.length < RECENT; i--) {
    const calls = messages[i].toolCalls ?? [];
    for (let j = calls.length - 1; j >= 0 && out.length < RECENT; j--) {
      const call = calls[j];
      const key =
        call.name === "Skill" && typeof call.arguments.skill === "string"
          ? skillKey(call.arguments.skill, candidates)
          : call.name === "Task" && typeof call.arguments.subagent_type === "string"
            ? candidateKey("agent", call.arguments.subagent_type)
            : call.name === "activate_plugin" && typeof call.arguments.name === "string"
              ? candidateKey("plugin", call.arguments.name)
              : candidateKey("tool", call.name);
      if (candidates.has(key) && !out.includes(key)) out.push(key);
    }
  }
  return out;
}

/**
 * The skill a Skill call loaded: by its name, or by its short name (`pdf` for `docs:pdf`) when
 * one plugin's skill alone has it, as the Skill tool resolves it.
 */
function skillKey(name: string, candidates: ReadonlyMap<string, Candidate>): string {
  const key = candidateKey("skill", name);
  if (candidates.has(key) || name.includes(":")) return key;
  let short = shortSkills.get(candidates);
  if (!short) {
    short = new Map();
    for (const c of candidates.values())
      if (c.kind === "skill" && c.name.includes(":")) {
        const tail = c.name.slice(c.name.lastIndexOf(":") + 1);
        short.set(tail, short.has(tail) ? null : c.key);
      }
    shortSkills.set(candidates, short);
  }
  return short.get(name) ?? key;
}

/** Skills by their short names, by catalog (null: more than one plugin has that name). */
const shortSkills = new WeakMap<ReadonlyMap<string, Candidate>, Map<string, string | null>>();

const WORD = /[\p{L}\p{N}_:-]/u;
const WORDS = /[\p{L}\p{N}_:-]+/gu;
const ALL_WORD = /^[\p{L}\p{N}_:-]+$/u;

/** `name` appears in `text` as a word of its own (any case): "use the pdf-extract skill". */
export function mentions(text: string, name: string): boolean {
  return mentionsIn(text)(name);
}

/**
 * Asks of one text, for many names, whether it names them (as `mentions`): the text is read
 * once. A name made only of word characters is named exactly when it is one of the text's
 * words; any other name is looked for in the text.
 */
export function mentionsIn(text: string): (name: string) => boolean {
  const hay = text.toLowerCase();
  let words: Set<string> | undefined;
  return (name) => {
    if (name.length < 3 || text.length < name.length) return false;
    const needle = name.toLowerCase();
    if (ALL_WORD.test(needle)) {
      words ??= new Set(hay.match(WORDS));
      return words.has(needle);
    }
    for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
      const before = at > 0 ? hay[at - 1] : "";
      const after = hay[at + needle.length] ?? "";
      if (!WORD.test(before) && !WORD.test(after)) return true;
    }
    return false;
  };
}
