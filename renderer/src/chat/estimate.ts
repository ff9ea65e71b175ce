/**
 * A turn's height before it is drawn, from its text and items. The virtualized transcript places
 * turns it has not measured yet by these estimates: the closer they are, the less the scrollbar
 * and the view jump as turns get measured. (A flat 220 px was ~8× too small for agent turns with
 * tool calls: a 2,000-message session grew from ~100,000 px to ~600,000 px while scrolled up.)
 * Constants fitted in Chromium to the chat's CSS (14 px text, line height 1.6): within ~10% per turn.
 * Plain TypeScript, no DOM: tested under node.
 */
import type { Item, Turn } from "./transcript.ts";

const LINE = 22.4;
const CODE_LINE = 22;
/** Average width of a character of prose at 14 px. */
const CHAR = 7.2;
/** The turn's own spacing, and the prompt bubble's padding and gap. */
const TURN = 24;
const PROMPT = 28;
/** A message's frame (actions row, gap); a collapsed card or note; the hook timeline's line. */
const MESSAGE = 80;
const CARD = 60;
const NOTE = 40;
const HOOKS = 47;
const CODE_BLOCK = 28;
const PARAGRAPH = 9;
/** Turns are at most this wide (chat.css .turn). */
const MAX_WIDTH = 820;

const cache = new WeakMap<Turn, { width: number; height: number }>();

export function estimateTurnHeight(turn: Turn, width: number): number {
  const w = Math.min(width > 0 ? width : MAX_WIDTH, MAX_WIDTH);
  const hit = cache.get(turn);
  if (hit && hit.width === w) return hit.height;
  let height = TURN + (turn.hooks.length > 0 ? HOOKS : 0);
  if (turn.prompt !== null) height += PROMPT + textLines(turn.prompt, (w * 0.78) / CHAR) * LINE;
  for (const item of turn.items) height += itemHeight(item, w / CHAR);
  height = Math.round(height);
  cache.set(turn, { width: w, height });
  return height;
}

function itemHeight(item: Item, perLine: number): number {
  switch (item.kind) {
    case "assistant":
      return MESSAGE + markdownHeight(item.text, perLine);
    case "injected":
      return NOTE + markdownHeight(item.text, perLine);
    case "tool":
      return CARD + (item.state === "error" ? LINE : 0);
    case "command":
      return NOTE + textLines(item.output, perLine) * CODE_LINE;
    case "thinking":
      return NOTE - 10;
    default:
      return NOTE;
  }
}

/** Lines of text as `white-space: pre-wrap` lays them out, `perLine` characters wide. */
function textLines(text: string, perLine: number): number {
  let lines = 0;
  forEachLine(text, (start, end) => (lines += Math.max(1, Math.ceil((end - start) / perLine))));
  return lines;
}

/**
 * Paragraphs and list items wrap; fenced code keeps its lines and adds its header. One pass with
 * no copies or regular expressions: it runs for every turn of a history when it loads.
 */
export function markdownHeight(text: string, perLine: number): number {
  let height = 0;
  let fence = false;
  let paragraph = 0;
  const endParagraph = () => {
    if (paragraph > 0) height += Math.ceil(paragraph / perLine) * LINE + PARAGRAPH;
    paragraph = 0;
  };
  forEachLine(text, (start, end) => {
    let first = start;
    while (first < end && text.charCodeAt(first) === SPACE) first++;
    if (first === end) return endParagraph();
    const c = text.charCodeAt(first);
    if (
      (c === BACKTICK || c === TILDE) &&
      first - start <= 3 &&
      text.startsWith(FENCES[c], first)
    ) {
      endParagraph();
      if (!fence) height += CODE_BLOCK + PARAGRAPH;
      fence = !fence;
    } else if (fence) height += CODE_LINE;
    else if ((c === DASH || c === STAR || c === PLUS) && text.charCodeAt(first + 1) === SPACE) {
      endParagraph();
      height += Math.ceil((end - start) / perLine) * LINE;
    } else paragraph += end - start + 1;
  });
  endParagraph();
  return height;
}

const SPACE = 32;
const BACKTICK = 96;
const TILDE = 126;
const DASH = 45;
const STAR = 42;
const PLUS = 43;
const FENCES: Record<number, string> = { [BACKTICK]: "```", [TILDE]: "~~~" };

function forEachLine(text: string, line: (start: number, end: number) => void): void {
  let start = 0;
  for (;;) {
    const end = text.indexOf("\n", start);
    if (end === -1) return line(start, text.length);
    line(start, end);
    start = end + 1;
  }
}
