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

/** The tool a turn over its prompt budget offers for the rest (main/turn/offer/search-tool.ts). */
export const SEARCH_TOOL_NAME = "SearchTools";

/** The line a listing ends with when a turn's prompt budget left some of it out. */
export function leftOut(count: number, what: string): string {
  return `(${count} more ${what} are installed but not listed here: ${SEARCH_TOOL_NAME} finds them)`;
}
