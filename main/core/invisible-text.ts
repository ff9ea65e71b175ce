/**
 * Characters a person does not see but a model reads: Unicode tag characters (U+E0000–E007F, a
 * whole hidden alphabet), zero-width spaces and joiners, bidi controls, variation selectors,
 * invisible fillers and the C0/C1 controls other than tab, newline and carriage return. A server's
 * tool description can smuggle instructions in them, so what the model gets from one has them
 * removed. (Showing them to a person is main/core/visible-text.ts's job.)
 */

const INVISIBLE_CLASS =
  "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F" + // controls but \t \n \r
  "\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F" + // soft hyphen, fillers, Mongolian
  "\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F" + // zero-width, bidi marks/embeddings/isolates
  "\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFF8" + // filler, variation selectors, BOM
  "\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}"; // musical format, tags, VS17+

const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, "u");
const INVISIBLE_ALL = new RegExp(`[${INVISIBLE_CLASS}]`, "gu");

export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

/** The text without its invisible characters. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE_ALL, "");
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
  return text.replace(
    INVISIBLE_ALL,
    (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}}`,
  );
}
