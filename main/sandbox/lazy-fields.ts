/**
 * Context fields that travel with the call but are parsed only when looked at. Parsing a whole
 * context is most of a hook's entry into a cold isolate, and most hooks read one field or two:
 * the fields come in as text, and the prelude (prelude-fields.ts) parses the one the plugin
 * touches, inside the sandbox, without a trip to the host.
 */
export interface DeferredFields {
  /** The field names as a JSON array, in the order of their texts. */
  readonly names: string;
  /** Each field's JSON (from JSON.stringify) after a DEFERRED_SEPARATOR. */
  readonly text: string;
}

/** A newline: JSON.stringify never writes one (it escapes those inside strings). */
export const DEFERRED_SEPARATOR = "\n";

/**
 * isolated-vm hands a string of 1,024 bytes or more to the isolate as an external string, which
 * cost ~8 µs more per entry into a cold isolate than copying it (measured on a 1.4 KB hook
 * context): longer texts cross as pieces shorter than that.
 */
export const COPIED_STRING_CHARS = 1000;

let lastDeferred: DeferredFields | undefined;
let lastPieces: string[] = [];

/**
 * The deferred fields' text cut into pieces short enough to be copied; none without deferred
 * fields. Every plugin of a hook gets the same fields: the last ones are remembered.
 */
export function deferredPieces(deferred: DeferredFields | undefined): string[] {
  if (deferred === undefined) return [];
  if (deferred !== lastDeferred) {
    lastPieces = copiedPieces(deferred.text);
    lastDeferred = deferred;
  }
  return lastPieces;
}

/** Sent for a call without lazy or deferred fields: its arguments are all in their JSON. */
const NO_SHAPE = 0;
/** Shapes a sandbox keeps at most; past that the numbering starts again. */
const MAX_SHAPES = 64;

/**
 * The shapes of the contexts sent to one sandbox (the names of their lazy and deferred fields),
 * by number. The same few shapes come with every call: a shape crosses as its names once and
 * then as its number alone, so a cold isolate neither copies nor hashes ~300 characters of names
 * at every entry. The sandbox keeps what a number stands for until the number comes with names
 * again.
 */
export class ContextShapes {
  readonly #numbers = new Map<string, number>();
  /** The names that go with the last `number()`, or "" when the sandbox has them already. */
  names = "";

  /** The number of the shape of these names (JSON arrays, "" for none). */
  number(lazyNames: string, deferredNames: string): number {
    this.names = "";
    if (lazyNames === "" && deferredNames === "") return NO_SHAPE;
    const key = lazyNames + DEFERRED_SEPARATOR + deferredNames;
    let n = this.#numbers.get(key);
    if (n !== undefined) return n;
    if (this.#numbers.size >= MAX_SHAPES) this.#numbers.clear();
    n = this.#numbers.size + 1;
    this.#numbers.set(key, n);
    this.names = key;
    return n;
  }

  /**
   * Forgets what was sent: an entry that failed may not have got as far as taking in a shape's
   * names, so every shape goes with its names again.
   */
  reset(): void {
    this.#numbers.clear();
  }
}

/** `text` cut into pieces short enough to be copied. */
export function copiedPieces(text: string): string[] {
  if (text.length <= COPIED_STRING_CHARS >> 1) return [text];
  // One-byte strings take a byte a character, the others two: those are cut at half the length.
  const size = /[\u0100-\uffff]/.test(text) ? COPIED_STRING_CHARS >> 1 : COPIED_STRING_CHARS;
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/**
 * Context fields a call ships lazily: the big, rarely read ones (conversation turns, tool
 * history, the system prompt) stay on the host until the plugin touches them, when the prelude
 * fetches that one field synchronously. Most hooks never read them, and copying ~10 KB into every
 * plugin on every hook was most of a hook call's cost.
 */
export interface LazyTexts {
  /** The field names as a JSON array, announced to the sandbox with the call. */
  readonly names: string;
  /** One field's JSON, or undefined for a name the call does not have. */
  text(name: string): string | undefined;
}

/** Lazy fields whose texts are at hand; undefined for none. */
export function lazyTexts(fields: Readonly<Record<string, string>>): LazyTexts | undefined {
  const keys = Object.keys(fields);
  if (keys.length === 0) return undefined;
  const texts = new Map(Object.entries(fields));
  return { names: JSON.stringify(keys), text: (name) => texts.get(name) };
}

/** Every lazy field's text, by name: for a sandbox on another thread, which cannot call back. */
export function lazyRecord(lazy: LazyTexts): Record<string, string> {
  const record: Record<string, string> = {};
  for (const name of JSON.parse(lazy.names) as string[]) {
    const text = lazy.text(name);
    if (text !== undefined) record[name] = text;
  }
  return record;
}

/**
 * A sandbox's calls' lazy fields. Kept for the last calls too, so a plugin that keeps a context
 * and reads it in a later call still sees what it was given.
 */
const KEEP_CALLS = 32;

export class LazyFields {
  private readonly calls = new Map<number, LazyTexts>();

  /** Keeps a call's lazy fields for the prelude to fetch; its names go with the call's shape. */
  register(callId: number, fields: LazyTexts | undefined): void {
    if (fields === undefined) return;
    this.calls.set(callId, fields);
    if (this.calls.size > KEEP_CALLS) this.calls.delete(this.calls.keys().next().value as number);
  }

  /** The JSON text of one field, or undefined when the call is long gone. */
  get(callId: number, name: string): string | undefined {
    return this.calls.get(callId)?.text(name);
  }
}
