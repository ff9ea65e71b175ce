/** Default session titles, taken from the first thing the user typed. */
import type { Message } from "../core/message.ts";

export const TITLE_MAX_CHARS = 60;

/** One line, at most TITLE_MAX_CHARS, cut at a word boundary when one is reasonably close. */
export function titleFromText(text: string, max = TITLE_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).trimEnd() + "…";
}

/** Only what the user typed names a session: not system prompts, plugin injections or summaries. */
export function isTitleSource(message: Message): boolean {
  return message.role === "user" && message.kind === "normal" && message.content.trim() !== "";
}
