/**
 * What one user turn offers the model of the extensions: everything (the usual case, nothing
 * cut), or the items its prompt budget chose plus what the model found with SearchTools. The set
 * only grows within the turn, so each model call of it sees the calls before it as they were.
 */
import type { ToolSpec } from "../../providers/types.ts";
import { KEEP_ALL, type ListedItem } from "../../tools/listing.ts";
import { toolSpec, type Tool } from "../../tools/types.ts";
import { candidateKey, isBudgeted, type Candidate } from "./catalog.ts";

/** Keys of listed items, made once per item: listings ask for every item at every render. */
const itemKeys = new WeakMap<ListedItem, string>();

function itemKey(item: ListedItem): string {
  let key = itemKeys.get(item);
  if (key === undefined) {
    key = candidateKey(item.kind, item.name);
    itemKeys.set(item, key);
  }
  return key;
}

export class TurnOffer {
  /** The user turn it was chosen for (the session's interaction count). */
  readonly turn: number;
  /** False: everything fits, everything is offered and there is no search tool. */
  readonly cut: boolean;
  /** Tokens the extensions may take in this turn's requests (their items, listings' framing, SearchTools). */
  readonly budget: number;
  /** The catalog it was chosen from, shared and never changed; a copy once it adopts more. */
  #known: ReadonlyMap<string, Candidate>;
  /** What a cut offer offers (unused when nothing is cut: then everything known is offered). */
  readonly #chosen: Set<string>;
  /** The listing filter: a new function after every change, so listings can keep texts by it. */
  #keep: (item: ListedItem) => boolean = KEEP_ALL;
  /** Whether a plugin is offered (activate_plugin comes with one), known once asked. */
  #plugin: boolean | undefined;
  /** The model called SearchTools in this turn. */
  searched = false;
  /** What the timeline was last told ("24/518/false"), so it is told again only on a change. */
  reported = "";

  constructor(opts: {
    turn: number;
    cut: boolean;
    budget: number;
    candidates: ReadonlyMap<string, Candidate>;
    chosen?: Iterable<string>;
    /** The turn before's offer: when this one keeps the same, it keeps the same filter too. */
    previous?: TurnOffer;
  }) {
    this.turn = opts.turn;
    this.cut = opts.cut;
    this.budget = opts.budget;
    this.#known = opts.candidates;
    this.#chosen = new Set(opts.cut ? (opts.chosen ?? []) : []);
    const previous = opts.previous;
    // Listings keep their last text by the filter: a conversation whose turns keep offering the
    // same items does not render them again.
    if (previous && this.#keeps(previous)) this.#keep = previous.#keep;
    else this.#changed();
  }

  /** Whether `other` keeps exactly what this offer keeps. */
  #keeps(other: TurnOffer): boolean {
    if (!this.cut || !other.cut || other.#known !== this.#known) return false;
    if (other.#chosen.size !== this.#chosen.size) return false;
    for (const key of this.#chosen) if (!other.#chosen.has(key)) return false;
    return true;
  }

  /** Every item the turn knows of, offered or not. */
  get candidates(): ReadonlyMap<string, Candidate> {
    return this.#known;
  }

  /**
   * Items that appeared since the turn chose (a plugin activated mid-turn brings its tools):
   * offered, since the model asked for them or the person just added them.
   */
  adopt(current: ReadonlyMap<string, Candidate>): void {
    if (current === this.#known) return;
    let grown: Map<string, Candidate> | undefined;
    for (const [key, c] of current)
      if (!this.#known.has(key)) {
        grown ??= new Map(this.#known);
        grown.set(key, c);
        this.#chosen.add(key);
      }
    if (!grown) return;
    this.#known = grown;
    this.#changed();
  }

  get size(): number {
    return this.cut ? this.#chosen.size : this.#known.size;
  }

  has(key: string): boolean {
    return this.cut ? this.#chosen.has(key) : this.#known.has(key);
  }

  /** Adds items (search results, tools a skill loaded in this turn allows); returns the new ones. */
  add(keys: Iterable<string>): string[] {
    const added: string[] = [];
    if (!this.cut) return added;
    for (const key of keys)
      if (this.#known.has(key) && !this.#chosen.has(key)) {
        this.#chosen.add(key);
        added.push(key);
      }
    if (added.length > 0) this.#changed();
    return added;
  }

  /** Whether a listing keeps this item (every item when nothing is cut). */
  get keep(): (item: ListedItem) => boolean {
    return this.#keep;
  }

  #changed(): void {
    this.#plugin = undefined;
    if (!this.cut) return;
    const chosen = this.#chosen;
    this.#keep = (item) => chosen.has(itemKey(item));
  }

  /**
   * The tools the turn shows: budgeted ones only when chosen, and those that come with the
   * extensions (activate_plugin) only while a plugin is offered.
   */
  tools(tools: readonly Tool[]): Tool[] {
    if (!this.cut) return [...tools];
    this.#plugin ??= [...this.#chosen].some((key) => this.#known.get(key)?.kind === "plugin");
    const plugin = this.#plugin;
    return tools.filter((t) =>
      t.forExtensions ? plugin : !isBudgeted(t) || this.#chosen.has(candidateKey("tool", t.name)),
    );
  }

  /**
   * A tool as the model reads it: a listing in its description lists only what is offered, and
   * of that only what `only` allows (the sub-agents an agent may start).
   */
  spec(tool: Tool, only?: (item: ListedItem) => boolean): ToolSpec {
    return listedSpec(tool, this.#keep, only);
  }

  /** Tokens the chosen items take. */
  tokens(): number {
    let n = 0;
    if (!this.cut) for (const c of this.#known.values()) n += c.tokens;
    else for (const key of this.#chosen) n += this.#known.get(key)?.tokens ?? 0;
    return n;
  }
}

/** A tool's spec with its listing (if any) keeping what `keep` and `only` keep. */
export function listedSpec(
  tool: Tool,
  keep: (item: ListedItem) => boolean,
  only?: (item: ListedItem) => boolean,
): ToolSpec {
  const spec = toolSpec(tool);
  if ((keep === KEEP_ALL && !only) || !tool.listing) return spec;
  const listed = toolSpec({ ...tool, description: tool.listing.text(keep, only) });
  return { ...spec, description: listed.description };
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
