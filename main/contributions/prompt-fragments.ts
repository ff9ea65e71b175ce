/** Extra system prompt text from extensions (plugins, packs), in the order it was contributed. */
import { disposable, type Disposable } from "../lifecycle/disposable.ts";

export interface PromptFragment {
  /** Who contributed it (a plugin or pack name), for listings. */
  source: string;
  text: string;
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

  /** What the turn loop appends to the system prompt, read at every model call. */
  texts(): string[] {
    return this.fragments.map((f) => f.text);
  }
}
