/**
 * What a turn's prompt budget chooses from: each skill, agent and command line of a listing and
 * each plugin, MCP or runner tool, with what offering it costs. Built-in tools and the tools that
 * hold a listing (Skill, Task) are the fixed rest of the prompt, not items.
 */
import { toolSpec, type Tool } from "../../tools/types.ts";
import type { ListedItem, ListedKind, Listing } from "../../tools/listing.ts";
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

/**
 * The last catalog built, by what it was built from: the listings' item lists (each listing keeps
 * the same list until what it lists changes) and the budgeted tools. Every user turn of every
 * conversation would otherwise build the same hundreds of candidates again.
 */
let last: { from: readonly unknown[]; catalog: ReadonlyMap<string, Candidate> } | null = null;

/**
 * Every item the turn could offer, by key, in a stable order (listings first, then tools); the
 * same map while nothing it is built from changed.
 */
export function catalog(
  tools: readonly Tool[],
  listings: readonly Listing[],
): ReadonlyMap<string, Candidate> {
  const all = [...listings, ...tools.flatMap((t) => (t.listing ? [t.listing] : []))];
  const lists = all.map((listing) => listing.items());
  const from = [...lists, ...tools.filter(isBudgeted)];
  if (last && last.from.length === from.length && last.from.every((x, i) => x === from[i]))
    return last.catalog;
  last = { from, catalog: build(lists, tools) };
  return last.catalog;
}

function build(
  lists: readonly (readonly ListedItem[])[],
  tools: readonly Tool[],
): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  for (const items of lists)
    for (const item of items) {
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
