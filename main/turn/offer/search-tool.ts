/**
 * `SearchTools`: what a turn's prompt budget left out stays one search away. The model gives a
 * query; the best matches among the skills, agents, commands and tools not yet offered become
 * offered, so the turn's next model call lists them (skills, agents) or has them as tools.
 */
import { z } from "zod";
import { defineTool } from "../../tools/define.ts";
import { ToolError, toolSpec, type Tool } from "../../tools/types.ts";
import { estimateTools } from "../tokens.ts";
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

const QUERY = { query: z.string().min(1).describe("What you need, in a few words") };

/** Its definition, the same for every turn: made once (a zod schema turned into JSON Schema). */
let template: Tool | undefined;

function definition(): Tool {
  template ??= defineTool({
    name: SEARCH_TOOL_NAME,
    description:
      "Find skills, sub-agents and tools that are installed but not listed here (only the ones " +
      "most relevant to this conversation are). Give a few words about the task; the matches " +
      "are listed with what they do and become usable right away.",
    args: QUERY,
    parallel: true,
    // Reading the list of installed extensions.
    approval: "allow",
    execute: () => Promise.reject(new Error("SearchTools runs through a turn's offer")),
  });
  return template;
}

let searchTokens: number | undefined;

/** Estimated tokens SearchTools adds to a request (a cut offer pays it from its budget). */
export function searchToolTokens(): number {
  searchTokens ??= estimateTools([toolSpec(definition())]);
  return searchTokens;
}

/** The search tool of one turn's offer: what it finds joins that offer. */
export function searchTool(offer: TurnOffer, rank: Ranker): Tool {
  const base = definition();
  const tool: Tool = {
    ...base,
    async execute(input) {
      const checked = base.validate(input);
      if (!checked.ok) throw new ToolError(checked.error);
      const query = String(checked.value.query);
      offer.searched = true;
      const scores = rank.scores(query, { loose: true });
      const found = byScore(scores, offer.candidates)
        .filter((key) => !offer.has(key))
        .slice(0, SEARCH_RESULTS);
      offer.add(found);
      if (found.length === 0)
        return `Nothing more matches "${query}": everything that does is already offered.`;
      const lines = found.map((key) => {
        const c = offer.candidates.get(key)!;
        return `- ${c.name} (${HOW[c.kind]}): ${c.description}`;
      });
      return `Found ${found.length}, now usable:\n${lines.join("\n")}`;
    },
  };
  MADE.add(tool);
  return tool;
}
