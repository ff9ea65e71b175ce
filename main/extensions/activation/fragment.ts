/**
 * The model's listing of activatable plugins (seed 004 "Presentation to the AI"): every one with
 * its status and description, one line each, kept short because it rides along on every call.
 */
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

/** "" when there is nothing to list (no fragment is added then). */
export function activationFragment(entries: readonly ActivationEntry[]): string {
  if (entries.length === 0) return "";
  const lines = entries.map(
    (e) => `- ${e.name} (${status(e)})${e.description ? `: ${oneLine(e.description)}` : ""}`,
  );
  return [
    "Plugins (activate an inactive one with the activate_plugin tool and a reason when it would " +
      "help; the user confirms; its tools are available from the next step):",
    ...lines,
  ].join("\n");
}
