/**
 * What one user turn offers the model of the extensions: everything (the usual case, nothing
 * cut), or the items its prompt budget chose plus what the model found with SearchTools. The set
 * only grows within the turn, so each model call of it sees the calls before it as they were.
 */
import type { ToolSpec } from "../../providers/types.ts";
import { KEEP_ALL, type ListedItem } from "../../tools/listing.ts";
import { toolSpec, type Tool } from "../../tools/types.ts";
import { candidateKey, isBudgeted, type Candidate } from "./catalog.ts";

export class TurnOffer {
  /** The user turn it was chosen for (the session's interaction count). */
  readonly turn: number;
  /** False: everything fits, everything is offered and there is no search tool. */
  readonly cut: boolean;
  /** Tokens the extensions may take in this turn's requests (their items, listings' framing, SearchTools). */
  readonly budget: number;
  private readonly known: Map<string, Candidate>;
  /** The model called SearchTools in this turn. */
  searched = false;
  /** What the timeline was last told ("24/518/false"), so it is told again only on a change. */
  reported = "";
  private readonly chosen: Set<string>;

  constructor(opts: {
    turn: number;
    cut: boolean;
    budget: number;
    candidates: ReadonlyMap<string, Candidate>;
    chosen?: Iterable<string>;
  }) {
    this.turn = opts.turn;
    this.cut = opts.cut;
    this.budget = opts.budget;
    this.known = new Map(opts.candidates);
    this.chosen = new Set(opts.cut ? (opts.chosen ?? []) : opts.candidates.keys());
  }

  /** Every item the turn knows of, offered or not. */
  get candidates(): ReadonlyMap<string, Candidate> {
    return this.known;
  }

  /**
   * Items that appeared since the turn chose (a plugin activated mid-turn brings its tools):
   * offered, since the model asked for them or the person just added them.
   */
  adopt(current: ReadonlyMap<string, Candidate>): void {
    for (const [key, c] of current)
      if (!this.known.has(key)) {
        this.known.set(key, c);
        this.chosen.add(key);
      }
  }

  get size(): number {
    return this.chosen.size;
  }

  has(key: string): boolean {
    return this.chosen.has(key);
  }

  /** Adds items (search results, tools a skill loaded in this turn allows); returns the new ones. */
  add(keys: Iterable<string>): string[] {
    const added: string[] = [];
    for (const key of keys)
      if (this.candidates.has(key) && !this.chosen.has(key)) {
        this.chosen.add(key);
        added.push(key);
      }
    return added;
  }

  /** Whether a listing keeps this item. */
  readonly keep = (item: ListedItem): boolean =>
    !this.cut || this.chosen.has(candidateKey(item.kind, item.name));

  /**
   * The tools the turn shows: budgeted ones only when chosen, and those that come with the
   * extensions (activate_plugin) only while a plugin is offered.
   */
  tools(tools: readonly Tool[]): Tool[] {
    if (!this.cut) return [...tools];
    const plugin = [...this.chosen].some((key) => this.known.get(key)?.kind === "plugin");
    return tools.filter((t) =>
      t.forExtensions ? plugin : !isBudgeted(t) || this.chosen.has(candidateKey("tool", t.name)),
    );
  }

  /**
   * A tool as the model reads it: a listing in its description lists only what is offered, and
   * of that only what `only` allows (the sub-agents an agent may start).
   */
  spec(tool: Tool, only?: (item: ListedItem) => boolean): ToolSpec {
    const spec = toolSpec(tool);
    if ((!this.cut && !only) || !tool.listing) return spec;
    const keep = this.cut ? this.keep : KEEP_ALL;
    const listed = toolSpec({ ...tool, description: tool.listing.text(keep, only) });
    return { ...spec, description: listed.description };
  }

  /** Tokens the chosen items take. */
  tokens(): number {
    let n = 0;
    for (const key of this.chosen) n += this.candidates.get(key)?.tokens ?? 0;
    return n;
  }
}

/** A turn's offer with its search tool (absent when nothing is cut). */
export interface ChosenOffer {
  offer: TurnOffer;
  search?: Tool;
}

/** No budget applies (no window known, nothing to choose from): everything, as always. */
export function offerAll(turn: number, candidates: ReadonlyMap<string, Candidate>): TurnOffer {
  return new TurnOffer({ turn, cut: false, budget: Infinity, candidates });
}

/** The listing filter for `keep`: every item when nothing is cut. */
export function keepOf(offer: TurnOffer | undefined): (item: ListedItem) => boolean {
  return offer?.cut ? offer.keep : KEEP_ALL;
}
