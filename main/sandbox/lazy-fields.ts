/**
 * Context fields that travel with the call but are parsed only when read. The objects of a
 * context (stats, the tool list…) are most of what parsing it creates inside a cold isolate, and
 * most hooks read one field or none: the big ones come in as text, and the prelude's getter parses
 * the field the plugin touches, inside the sandbox, without a trip to the host.
 */
export interface DeferredFields {
  /** The field names as a JSON array, in the order of their texts. */
  readonly names: string;
  /** Each field's JSON (from JSON.stringify) after a DEFERRED_SEPARATOR. */
  readonly text: string;
}

/** A newline: JSON.stringify never writes one (it escapes those inside strings). */
export const DEFERRED_SEPARATOR = "\n";

/** Fields (name, JSON text from JSON.stringify) to ship deferred; undefined for none. */
export function deferredFields(
  fields: ReadonlyArray<readonly [string, string]>,
): DeferredFields | undefined {
  if (fields.length === 0) return undefined;
  return {
    names: JSON.stringify(fields.map(([name]) => name)),
    text: fields.map(([, json]) => DEFERRED_SEPARATOR + json).join(""),
  };
}

/**
 * What an entry's texts carry: the arguments' JSON, then the deferred fields. One text rather
 * than one per field: each more argument of an entry costs ~1 µs in a cold isolate.
 */
export function entryText(argsJson: string, deferred: DeferredFields | undefined): string {
  return deferred === undefined ? argsJson : argsJson + deferred.text;
}

/**
 * isolated-vm hands a string of 1,024 bytes or more to the isolate as an external string, which
 * cost ~8 µs more per entry into a cold isolate than copying it (measured on a 1.4 KB hook
 * context): longer texts cross as pieces shorter than that.
 */
export const COPIED_STRING_CHARS = 1000;

let lastArgs = "";
let lastDeferred: DeferredFields | undefined;
let lastPieces = [""];

/**
 * `entryText` cut into pieces short enough to be copied. Every plugin of a hook gets the same
 * arguments: the last ones are remembered.
 */
export function entryPieces(argsJson: string, deferred: DeferredFields | undefined): string[] {
  if (argsJson === lastArgs && deferred === lastDeferred) return lastPieces;
  const pieces = copiedPieces(entryText(argsJson, deferred));
  lastArgs = argsJson;
  lastDeferred = deferred;
  lastPieces = pieces;
  return pieces;
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
    const fields = this.calls.get(callId);
    // Only the call's own fields: never what an object inherits ("constructor", "__proto__").
    if (fields === undefined || !Object.hasOwn(fields, name)) return undefined;
    const text = fields[name];
    return typeof text === "string" ? text : undefined;
  }
}
