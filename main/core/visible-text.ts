/**
 * Text from a model, a plugin, a server or a repository as a person must see it in a question,
 * a consent or an activity line: every control, bidi, zero-width, tag or other invisible code
 * point is shown as a marker such as ⟨ESC⟩, ⟨CR⟩ or ⟨U+202E⟩, never passed on and never dropped.
 * A terminal would obey an ESC or CR (erasing what came before), a bidi override reorders what is
 * drawn, and invisible characters carry words the person never reads.
 *
 * The markers cannot be forged: "⟨" opens every marker and nothing else, because a "⟨" in the
 * text itself is shown as the marker ⟨U+27E8⟩. Backslashes and every other visible character
 * stay as written, so a shell command reads as the shell will read it. No Node: the renderer
 * bundles this.
 */

export const MARK_OPEN = "⟨";
export const MARK_CLOSE = "⟩";

export interface VisibleOptions {
  /** Keep newlines and tabs as they are (a block of lines); otherwise they are markers too. */
  lines?: boolean;
}

const C0_NAMES = [
  "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF", "CR", "SO", "SI",
  "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
]; // prettier-ignore

/**
 * What is never shown as it is: controls (C0, DEL, C1), format characters (bidi embeddings,
 * overrides, isolates and marks, zero-width spaces and joiners, tags…), line and paragraph
 * separators, lone surrogates, unassigned code points, everything Unicode says to draw as nothing
 * (variation selectors, Hangul fillers…), spaces other than the plain one, the braille blank, and
 * the marker's own opening bracket.
 */
const HIDDEN =
  /^(?:\p{Cc}|\p{Cf}|\p{Zl}|\p{Zp}|\p{Cs}|\p{Cn}|\p{Default_Ignorable_Code_Point}|\p{Zs}|\u2800|⟨)$/u;
/** Whether any character might be hidden: most text has none and is returned as it is. */
const MAYBE_HIDDEN =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800⟨]|(?! )\p{Zs}/u;
const EMOJI = /^\p{Extended_Pictographic}$/u;
const SKIN_TONE = /^[\u{1F3FB}-\u{1F3FF}]$/u;
/** Tag characters that stand for printable ASCII (U+E0020–E007E): hidden words, decoded. */
const TAG_FIRST = 0xe0020;
const TAG_LAST = 0xe007e;
/** A run this long of one hidden character is one marker with a count. */
const RUN = 3;

function isTag(cp: number): boolean {
  return cp >= TAG_FIRST && cp <= TAG_LAST;
}

function name(cp: number): string {
  if (cp < 0x20) return C0_NAMES[cp];
  if (cp === 0x7f) return "DEL";
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Emoji keep their joiners and presentation selectors: VS15/VS16 right after an emoji (or its
 * skin tone), a zero-width joiner between two emoji. Nothing else invisible is let through.
 */
function partOfEmoji(chars: string[], i: number): boolean {
  const c = chars[i];
  const before = chars[i - 1] ?? "";
  const emojiBefore = EMOJI.test(before) || SKIN_TONE.test(before);
  if (c === "\uFE0E" || c === "\uFE0F") return emojiBefore;
  if (c === "\u200D") {
    const prior = before === "\uFE0F" || SKIN_TONE.test(before) ? (chars[i - 2] ?? "") : before;
    return EMOJI.test(prior) && EMOJI.test(chars[i + 1] ?? "");
  }
  return false;
}

function hidden(chars: string[], i: number, opts: VisibleOptions): boolean {
  const c = chars[i];
  if (c === " ") return false;
  if (opts.lines && (c === "\n" || c === "\t")) return false;
  return HIDDEN.test(c) && !partOfEmoji(chars, i);
}

/** `text` with every control and invisible character shown as a marker (see the file's top). */
export function visibleText(text: string, opts: VisibleOptions = {}): string {
  if (!MAYBE_HIDDEN.test(text)) return text;
  // Array.from splits by code point and yields a lone surrogate as its own element.
  const chars = Array.from(text);
  let out = "";
  let i = 0;
  while (i < chars.length) {
    if (!hidden(chars, i, opts)) {
      out += chars[i++];
      continue;
    }
    const cp = chars[i].codePointAt(0)!;
    if (isTag(cp)) {
      let words = "";
      while (i < chars.length && isTag(chars[i].codePointAt(0)!))
        words += String.fromCharCode(chars[i++].codePointAt(0)! - 0xe0000);
      out += `${MARK_OPEN}tag text "${words}"${MARK_CLOSE}`;
      continue;
    }
    let n = 1;
    while (i + n < chars.length && chars[i + n] === chars[i] && hidden(chars, i + n, opts)) n++;
    if (n >= RUN) out += `${MARK_OPEN}${name(cp)} ×${n}${MARK_CLOSE}`;
    else out += `${MARK_OPEN}${name(cp)}${MARK_CLOSE}`.repeat(n);
    i += n;
  }
  return out;
}

export interface VisiblePart {
  text: string;
  /** A marker standing for hidden characters (a dialog styles it apart). */
  marker: boolean;
}

/**
 * Text that `visibleText` made (or composed of such pieces) split into plain text and markers,
 * so a dialog can style the markers. Exact because only markers contain "⟨".
 */
export function visibleParts(shown: string): VisiblePart[] {
  const parts: VisiblePart[] = [];
  let at = 0;
  for (const m of shown.matchAll(/⟨[^⟩]*⟩/g)) {
    if (m.index > at) parts.push({ text: shown.slice(at, m.index), marker: false });
    parts.push({ text: m[0], marker: true });
    at = m.index + m[0].length;
  }
  if (at < shown.length) parts.push({ text: shown.slice(at), marker: false });
  return parts;
}
