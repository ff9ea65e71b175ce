/**
 * The model's listing of activatable plugins (seed 004 "Presentation to the AI"): every one with
 * its status and description, one line each, kept short because it rides along on every call.
 */
import { leftOut, type ListedItem } from "../../tools/listing.ts";
import type { ActivationEntry } from "./activatable.ts";

/** Descriptions are cut to this many characters (the listing is paid for on every call). */
export const DESCRIPTION_LIMIT = 160;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > DESCRIPTION_LIMIT ? `${line.slice(0, DESCRIPTION_LIMIT - 1)}…` : line;
}

function status(e: ActivationEntry): string {
  switch (e.status) {
    case "active":
      return "active";
    case "inactive":
      return "inactive";
    case "failed":
      return `failed: ${oneLine(e.reason ?? "")}`;
    case "held-back":
      return "held back: its folder is not trusted";
  }
}

/** Each plugin's line, as an item a turn over its prompt budget may leave out. */
export function activationItems(entries: readonly ActivationEntry[]): ListedItem[] {
  return entries.map((e) => ({
    kind: "plugin",
    name: e.name,
    description: e.description ?? "",
    line: `- ${e.name} (${status(e)})${e.description ? `: ${oneLine(e.description)}` : ""}`,
  }));
}

/**
 * "" when there is nothing to list (no fragment is added then). `left`: how many more a turn over
 * its prompt budget left out (SearchTools finds them).
 */
export function activationFragment(items: readonly ListedItem[], left = 0): string {
  if (items.length === 0 && left === 0) return "";
  return [
    "Plugins (activate an inactive one with the activate_plugin tool and a reason when it would " +
      "help; the user confirms; its tools are available from the next step):",
    ...items.map((i) => i.line),
    ...(left > 0 ? [leftOut(left, "plugins")] : []),
  ].join("\n");
}
