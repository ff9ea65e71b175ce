/**
 * Characters a person does not see but a model reads: Unicode tag characters (U+E0000–E007F, a
 * whole hidden alphabet), zero-width spaces and joiners, bidi controls, variation selectors,
 * invisible fillers and the C0/C1 controls other than tab, newline and carriage return. A server's
 * tool description can smuggle instructions in them, so what the model gets from one has them
 * removed. (Showing them to a person is main/core/visible-text.ts's job.)
 */

// Ranges of code points, inclusive. (A regex character class would hold combining marks.)
const INVISIBLE: readonly (readonly [number, number])[] = [
  [0x0000, 0x0008], // controls but tab, newline and carriage return
  [0x000b, 0x000c],
  [0x000e, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark
  [0x115f, 0x1160], // Hangul fillers
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180b, 0x180f], // Mongolian selectors and vowel separator
  [0x200b, 0x200f], // zero-width space, joiners, LRM/RLM
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2060, 0x206f], // word joiner, invisible operators, bidi isolates
  [0x3164, 0x3164], // Hangul filler
  [0xfe00, 0xfe0f], // variation selectors
  [0xfeff, 0xfeff], // zero-width no-break space (BOM)
  [0xffa0, 0xffa0], // halfwidth Hangul filler
  [0xfff0, 0xfff8],
  [0x1d173, 0x1d17a], // musical formatting
  [0xe0000, 0xe007f], // tags
  [0xe0100, 0xe01ef], // variation selectors 17–256
];

function invisible(char: string): boolean {
  const cp = char.codePointAt(0)!;
  return INVISIBLE.some(([lo, hi]) => cp >= lo && cp <= hi);
}

export function hasInvisible(text: string): boolean {
  for (const char of text) if (invisible(char)) return true;
  return false;
}

/** The text without its invisible characters. */
export function stripInvisible(text: string): string {
  if (!hasInvisible(text)) return text;
  let out = "";
  for (const char of text) if (!invisible(char)) out += char;
  return out;
}

/**
 * A JSON value (a tool's input schema) with every string stripped. Object keys are left as they
 * are: a renamed property would no longer be the one the server expects (see `invisibleKey`).
 */
export function stripInvisibleDeep<T>(value: T): T {
  if (typeof value === "string") return stripInvisible(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => stripInvisibleDeep(v)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = stripInvisibleDeep(v);
    return out as T;
  }
  return value;
}

/** The first object key anywhere in a JSON value that holds an invisible character. */
export function invisibleKey(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = invisibleKey(v);
      if (found !== undefined) return found;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (hasInvisible(k)) return k;
      const found = invisibleKey(v);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The text with each invisible character written as `\u{…}`, for a line about it. */
export function escapeInvisible(text: string): string {
  let out = "";
  for (const char of text)
    out += invisible(char)
      ? `\\u{${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}}`
      : char;
  return out;
}
