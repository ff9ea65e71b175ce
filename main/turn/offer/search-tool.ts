/**
 * `SearchTools`: what a turn's prompt budget left out stays one search away. The model gives a
 * query; the best matches among the skills, agents, commands and tools not yet offered become
 * offered, so the turn's next model call lists them (skills, agents) or has them as tools.
 */
import { z } from "zod";
import { defineTool } from "../../tools/define.ts";
import type { Tool } from "../../tools/types.ts";
import { SEARCH_TOOL_NAME } from "../../tools/listing.ts";
import type { Candidate } from "./catalog.ts";
import type { TurnOffer } from "./offer.ts";
import { byScore, type Ranker } from "./rank.ts";

/** Matches one search offers at most: enough to choose from, few enough to stay small. */
export const SEARCH_RESULTS = 8;

const HOW: Record<Candidate["kind"], string> = {
  skill: "a skill: load it with the Skill tool",
  agent: "an agent: run it with the Task tool",
  command: "a command",
  plugin: "a plugin: activate it with the activate_plugin tool",
  tool: "a tool: call it directly",
};

/** The search tools turns made: they only read what is installed, so no one is asked. */
const MADE = new WeakSet<Tool>();

export function isTurnSearchTool(tool: Tool): boolean {
  return MADE.has(tool);
}

export function searchTool(offer: TurnOffer, rank: Ranker): Tool {
  const tool = defineTool({
    name: SEARCH_TOOL_NAME,
    description:
      "Find skills, sub-agents and tools that are installed but not listed here (only the ones " +
      "most relevant to this conversation are). Give a few words about the task; the matches " +
      "are listed with what they do and become usable right away.",
    args: {
      query: z.string().min(1).describe("What you need, in a few words"),
    },
    parallel: true,
    // Reading the list of installed extensions.
    approval: "allow",
    async execute(args) {
      offer.searched = true;
      const scores = rank.scores(args.query, { loose: true });
      const found = byScore(scores, offer.candidates)
        .filter((key) => !offer.has(key))
        .slice(0, SEARCH_RESULTS);
      offer.add(found);
      if (found.length === 0)
        return `Nothing more matches "${args.query}": everything that does is already offered.`;
      const lines = found.map((key) => {
        const c = offer.candidates.get(key)!;
        return `- ${c.name} (${HOW[c.kind]}): ${c.description}`;
      });
      return `Found ${found.length}, now usable:\n${lines.join("\n")}`;
    },
  });
  MADE.add(tool);
  return tool;
}
