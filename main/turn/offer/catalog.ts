/**
 * What a turn's prompt budget chooses from: each skill, agent and command line of a listing and
 * each plugin, MCP or runner tool, with what offering it costs. Built-in tools and the tools that
 * hold a listing (Skill, Task) are the fixed rest of the prompt, not items.
 */
import { toolSpec, type Tool } from "../../tools/types.ts";
import type { ListedKind, Listing } from "../../tools/listing.ts";
import { estimateText, estimateTools } from "../tokens.ts";

export interface Candidate {
  /** `kind:name`: a skill and a tool may share a name. */
  readonly key: string;
  readonly kind: ListedKind | "tool";
  readonly name: string;
  readonly description: string;
  readonly whenToUse?: string;
  /** Estimated tokens it adds to the request when offered. */
  readonly tokens: number;
}

export const candidateKey = (kind: Candidate["kind"], name: string): string => `${kind}:${name}`;

/** A tool a turn may leave out: one an extension brings, not part of the engine's own prompt. */
export function isBudgeted(tool: Tool): boolean {
  return tool.source !== "builtin" && !tool.listing && !tool.alwaysOffered;
}

/** Every item the turn could offer, by key, in a stable order (listings first, then tools). */
export function catalog(
  tools: readonly Tool[],
  listings: readonly Listing[],
): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  const all = [...listings, ...tools.flatMap((t) => (t.listing ? [t.listing] : []))];
  for (const listing of all)
    for (const item of listing.items()) {
      const key = candidateKey(item.kind, item.name);
      if (out.has(key)) continue;
      out.set(key, {
        key,
        kind: item.kind,
        name: item.name,
        description: item.description,
        ...(item.whenToUse ? { whenToUse: item.whenToUse } : {}),
        tokens: estimateText(`${item.line}\n`),
      });
    }
  for (const tool of tools) {
    if (!isBudgeted(tool)) continue;
    const key = candidateKey("tool", tool.name);
    if (out.has(key)) continue;
    out.set(key, {
      key,
      kind: "tool",
      name: tool.name,
      description: tool.description,
      tokens: estimateTools([toolSpec(tool)]),
    });
  }
  return out;
}
