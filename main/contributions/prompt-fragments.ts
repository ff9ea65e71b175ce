/** Extra system prompt text from extensions (plugins, packs), in the order it was contributed. */
import { disposable, type Disposable } from "../lifecycle/disposable.ts";
import type { ListedItem, Listing } from "../tools/listing.ts";

export interface PromptFragment {
  /** Who contributed it (a plugin or pack name), for listings. */
  source: string;
  text: string;
  /** Its text lists extensions one line each (the skills): a turn may list only some. */
  listing?: Listing;
}

export class PromptFragments {
  private fragments: PromptFragment[] = [];

  add(fragment: PromptFragment): Disposable {
    this.fragments = [...this.fragments, fragment];
    return disposable(() => {
      this.fragments = this.fragments.filter((f) => f !== fragment);
    });
  }

  list(): readonly PromptFragment[] {
    return this.fragments;
  }

  /**
   * What the turn loop appends to the system prompt, read at every model call; `keep`: the
   * listed extensions a turn over its prompt budget offers.
   */
  texts(keep?: (item: ListedItem) => boolean): string[] {
    return this.fragments.map((f) => (keep && f.listing ? f.listing.text(keep) : f.text));
  }

  /** The fragments' listings (what a turn's prompt budget chooses from). */
  listings(): Listing[] {
    return this.fragments.flatMap((f) => (f.listing ? [f.listing] : []));
  }
}
