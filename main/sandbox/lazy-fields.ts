/**
 * Context fields a call ships lazily: the big, rarely read ones (conversation turns, tool
 * history, the system prompt) stay on the host until the plugin touches them, when the prelude's
 * getter fetches that one field synchronously. Most hooks never read them, and copying ~10 KB
 * into every plugin on every hook was most of a hook call's cost.
 *
 * Values are kept for the last calls too, so a plugin that keeps a context and reads it in a
 * later call still sees what it was given.
 */
const KEEP_CALLS = 32;

/** The names of a set of lazy fields as JSON, once per set (every plugin of a hook gets the same). */
const namesOf = new WeakMap<object, string>();

export class LazyFields {
  private readonly calls = new Map<number, Readonly<Record<string, string>>>();

  /** The field names to announce to the prelude (JSON array), or "" when there are none. */
  register(callId: number, fields: Readonly<Record<string, string>> | undefined): string {
    if (!fields) return "";
    let names = namesOf.get(fields);
    if (names === undefined) {
      const keys = Object.keys(fields);
      names = keys.length === 0 ? "" : JSON.stringify(keys);
      namesOf.set(fields, names);
    }
    if (names === "") return "";
    this.calls.set(callId, fields);
    if (this.calls.size > KEEP_CALLS) this.calls.delete(this.calls.keys().next().value as number);
    return names;
  }

  /** The JSON text of one field, or undefined when the call is long gone. */
  get(callId: number, name: string): string | undefined {
    return this.calls.get(callId)?.[name];
  }
}
