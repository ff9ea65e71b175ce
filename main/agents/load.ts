/**
 * Agents from Markdown files: Islet's `<home>/config/agents/*.md` (the project home overrides the
 * global one) and, through `loadAgents(dir)`, any folder of them (a Claude Code plugin's `agents/`).
 * Claude's fields and Islet's are both read; an unknown field is a warning, a bad one skips the
 * file with one line naming file and field.
 */
import path from "node:path";
import { z } from "zod";
import { configDir } from "../config/homes.ts";
import {
  fileProblem,
  looseText,
  readMarkdownFile,
  toolList,
  toolPatterns,
  type Loaded,
} from "../config/frontmatter-fields.ts";
import type { Problem } from "../host/problem.ts";
import { indexedParse } from "../config/markdown-index.ts";
import { markdownFiles } from "../config/markdown-walk.ts";
import { DEFAULT_AGENT, DEFAULT_MAX_STEPS, type AgentConfig } from "./definition.ts";
import { isletToolList, isletToolName } from "../tools/claude-names.ts";

/** A share of the model's window (extensions_budget, hook_context_budget). */
const windowPercent = z
  .number()
  .min(1, "must be a percent of the window from 1 to 100")
  .max(100, "must be a percent of the window from 1 to 100");

const AGENT_FIELDS = {
  name: z.string().min(1).optional(),
  description: looseText.optional(),
  provider: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  tools: toolList.optional(),
  disallowedTools: toolList.optional(),
  max_steps: z.number().int().positive().optional(),
  maxTurns: z.number().int().positive().optional(),
  failover: toolList.optional(),
  thinking: z.enum(["off", "low", "medium", "high"]).optional(),
  extensions_budget: windowPercent.optional(),
  hook_context_budget: windowPercent.optional(),
  // Claude Code's, read so they are not reported as unknown; not used by Islet yet.
  skills: z.unknown().optional(),
  color: z.unknown().optional(),
  permissionMode: z.unknown().optional(),
  effort: z.unknown().optional(),
  initialPrompt: z.unknown().optional(),
  memory: z.unknown().optional(),
  background: z.unknown().optional(),
};

export interface AgentLoad {
  agents: Map<string, AgentConfig>;
  /** One per broken file; broken files are skipped, the rest load. */
  errors: Problem[];
  /** Unknown fields (the file loaded). */
  warnings: Problem[];
}

export function readAgentFile(
  file: string,
  text: string,
  opts: { namespace?: string } = {},
): { agent: AgentConfig; warnings: Problem[] } {
  const { data: d, body, warnings } = readMarkdownFile(file, text, AGENT_FIELDS);
  const bare = d.name ?? path.basename(file).replace(/\.md$/i, "");
  const tools = d.tools && agentTools(file, "tools", d.tools, warnings);
  const toolRules = d.tools && narrowingRules(d.tools);
  const deniedRules = d.disallowedTools && narrowingRules(d.disallowedTools);
  // A disallowed rule with a specifier refuses the calls it covers, not the whole tool.
  const withheld = d.disallowedTools?.filter((t) => !deniedRules?.includes(t));
  const disallowed = withheld && agentTools(file, "disallowedTools", withheld);
  return {
    agent: {
      name: opts.namespace ? `${opts.namespace}:${bare}` : bare,
      description: d.description ?? "",
      systemPrompt: body.trim(),
      provider: d.provider,
      // Claude's "inherit" (the default) is the session's model, as an unset one is.
      model: d.model === "inherit" ? undefined : d.model,
      tools,
      disallowedTools: disallowed,
      ...(toolRules && toolRules.length > 0 ? { toolRules } : {}),
      ...(deniedRules && deniedRules.length > 0 ? { deniedRules } : {}),
      maxSteps: d.max_steps ?? d.maxTurns ?? DEFAULT_MAX_STEPS,
      failover: d.failover ?? [],
      thinking: d.thinking,
      ...(d.extensions_budget !== undefined ? { extensionsBudget: d.extensions_budget } : {}),
      ...(d.hook_context_budget !== undefined ? { hookContextBudget: d.hook_context_budget } : {}),
      file,
    },
    warnings,
  };
}

/**
 * A tool list in Islet's names: Claude's (`Edit`, `MultiEdit`, `LS`, `Agent`) mapped, specifiers
 * (`Bash(git:*)`) cut (narrowingRules keeps them). The Claude built-ins Islet lacks are one warning naming them; the rest load.
 */
function agentTools(
  file: string,
  field: string,
  listed: readonly string[],
  warnings?: Problem[],
): string[] {
  const { tools, missing } = isletToolList(toolPatterns(listed));
  if (missing.length > 0)
    warnings?.push({
      source: "agents",
      file,
      title: `${field}: Islet has no ${missing.join(", ")}; the agent loads without ${missing.length === 1 ? "it" : "them"}`,
    });
  return tools;
}

/**
 * The entries with a specifier (`Bash(git:*)`, `Agent(worker)`) for tools the list does not also
 * name bare (a bare `Bash` beside `Bash(git:*)` means every Bash call).
 */
function narrowingRules(listed: readonly string[]): string[] {
  const bare = new Set(listed.filter((t) => !t.includes("(")).map(isletToolName));
  return listed.filter((t) => {
    const m = /^([^(]+)\((.*)\)$/s.exec(t);
    return (
      m !== null &&
      m[2].trim() !== "" &&
      m[2].trim() !== "*" &&
      !bare.has(isletToolName(m[1].trim()))
    );
  });
}

/** One agent file; throws one line naming the file and the field. */
export function parseAgentFile(file: string, text: string): AgentConfig {
  return readAgentFile(file, text).agent;
}

/**
 * An agent file through the markdown index: unchanged since it was parsed, it is not read, and
 * its prompt is read on first use. `parse` (default readAgentFile) may be a lenient reading.
 */
export function indexedAgentFile(
  file: string,
  opts: { namespace?: string } = {},
  kind = "agent",
  parse: (text: string) => { agent: AgentConfig; warnings: Problem[] } = (text) =>
    readAgentFile(file, text, opts),
): { agent: AgentConfig; warnings: Problem[] } {
  const { item, warnings } = indexedParse<AgentConfig>(
    kind,
    file,
    opts.namespace ?? "",
    "systemPrompt",
    (t) => {
      const parsed = parse(t);
      return { item: parsed.agent, warnings: parsed.warnings };
    },
  );
  return { agent: item, warnings };
}

/** Every `*.md` under `dir`; `namespace` (a plugin's name) makes them `namespace:name`. */
export function loadAgents(dir: string, opts: { namespace?: string } = {}): Loaded<AgentConfig> {
  const out: Loaded<AgentConfig> = { items: [], errors: [], warnings: [] };
  for (const { file } of markdownFiles(dir, 0)) {
    try {
      const { agent, warnings } = indexedAgentFile(file, opts);
      out.items.push(agent);
      out.warnings.push(...warnings);
    } catch (err) {
      out.errors.push(fileProblem(err, file));
    }
  }
  return out;
}

/** An agent's failover names no agent: in its file, or (a built-in one) under its name. */
export function unknownFailover(agent: AgentConfig, next: string): Problem {
  const title = `failover: unknown agent "${next}"`;
  return agent.file ? { source: "agents", file: agent.file, title } : { source: agent.name, title };
}

/** The homes' agents (later homes override earlier ones) and the built-in default. */
export function loadHomeAgents(homeLayers: readonly string[]): AgentLoad {
  const agents = new Map<string, AgentConfig>([[DEFAULT_AGENT.name, DEFAULT_AGENT]]);
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  for (const home of homeLayers) {
    const loaded = loadAgents(configDir(home, "agents"));
    for (const agent of loaded.items) agents.set(agent.name, agent);
    errors.push(...loaded.errors);
    warnings.push(...loaded.warnings);
  }
  for (const agent of agents.values()) {
    for (const next of agent.failover) {
      if (!agents.has(next)) errors.push(unknownFailover(agent, next));
    }
  }
  return { agents, errors, warnings };
}
