/**
 * A list of extensions the model is told about in one piece of text (the skills in the system
 * prompt, the agents in the Task tool's description): one line per item, so a turn whose prompt
 * budget cannot hold them all lists only the items it chose (main/turn/offer/).
 */

export type ListedKind = "skill" | "agent" | "command" | "plugin";

export interface ListedItem {
  readonly kind: ListedKind;
  readonly name: string;
  readonly description: string;
  readonly whenToUse?: string;
  /** Its line in the listing: what offering it costs. */
  readonly line: string;
}

export interface Listing {
  /** Everything it would list. */
  items(): readonly ListedItem[];
  /**
   * Its text with only the items `keep` keeps (keeping all: the full text). Items `only` leaves
   * out are not this reader's at all: neither shown nor counted as left out.
   */
  text(keep: (item: ListedItem) => boolean, only?: (item: ListedItem) => boolean): string;
}

/** Keeps every item: a listing's text as it is without a budget. */
export const KEEP_ALL = (): boolean => true;

/** Keeps no item: what a listing costs by itself (its heading, its "N more…" line). */
export const KEEP_NONE = (): boolean => false;

/** The tool a turn over its prompt budget offers for the rest (main/turn/offer/search-tool.ts). */
export const SEARCH_TOOL_NAME = "SearchTools";

/** The line a listing ends with when a turn's prompt budget left some of it out. */
export function leftOut(count: number, what: string): string {
  return `(${count} more ${what} are installed but not listed here: ${SEARCH_TOOL_NAME} finds them)`;
}

/**
 * A listing over `items()`, which must return the same array while what it lists is unchanged.
 * `render` writes the text of the kept items and the count left out. A turn renders the same
 * listing several times with the same filters (its prompt, its token estimates), and a turn's
 * filters are new functions whenever what they keep changes: so the last text is kept by the
 * items and filters it was made from, and the full text by the items alone.
 */
export function listingOf(
  items: () => readonly ListedItem[],
  render: (kept: readonly ListedItem[], left: number) => string,
): Listing {
  let full: { all: readonly ListedItem[]; text: string } | null = null;
  let none: {
    all: readonly ListedItem[];
    only: ((item: ListedItem) => boolean) | undefined;
    text: string;
  } | null = null;
  let last: {
    all: readonly ListedItem[];
    keep: (item: ListedItem) => boolean;
    only: ((item: ListedItem) => boolean) | undefined;
    text: string;
  } | null = null;
  return {
    items,
    text(keep, only) {
      const all = items();
      if (keep === KEEP_ALL && !only) {
        if (full?.all !== all) full = { all, text: render(all, 0) };
        return full.text;
      }
      if (keep === KEEP_NONE) {
        if (none?.all !== all || none.only !== only) {
          const left = only ? all.filter(only).length : all.length;
          none = { all, only, text: render([], left) };
        }
        return none.text;
      }
      if (last?.all === all && last.keep === keep && last.only === only) return last.text;
      const mine = only ? all.filter(only) : all;
      const kept = mine.filter(keep);
      last = { all, keep, only, text: render(kept, mine.length - kept.length) };
      return last.text;
    },
  };
}
