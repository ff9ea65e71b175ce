/** Loads agents from `<home>/config/agents/*.md`; the project home overrides the global one. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseFrontmatter } from "../config/frontmatter.ts";
import { configDir } from "../config/homes.ts";
import { DEFAULT_AGENT, DEFAULT_MAX_STEPS, type AgentConfig } from "./definition.ts";

const listOrCsv = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(",")).map((s) => s.trim()).filter(Boolean));

const Frontmatter = z
  .object({
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    provider: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    tools: listOrCsv.optional(),
    max_steps: z.number().int().positive().optional(),
    failover: listOrCsv.optional(),
    thinking: z.enum(["off", "low", "medium", "high"]).optional(),
  })
  .loose();

export interface AgentLoad {
  agents: Map<string, AgentConfig>;
  /** One line per broken file; broken files are skipped, the rest load. */
  errors: string[];
}

function describeZodError(err: z.ZodError): string {
  const issue = err.issues[0];
  const where = issue.path.length > 0 ? issue.path.join(".") : "frontmatter";
  return `${where}: ${issue.message}`;
}

export function parseAgentFile(file: string, text: string): AgentConfig {
  let doc;
  try {
    doc = parseFrontmatter(text);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`, { cause: err });
  }
  const fm = Frontmatter.safeParse(doc.data);
  if (!fm.success) throw new Error(`${file}: ${describeZodError(fm.error)}`);
  const d = fm.data;
  return {
    name: d.name ?? path.basename(file, ".md"),
    description: d.description ?? "",
    systemPrompt: doc.body.trim(),
    provider: d.provider,
    model: d.model,
    tools: d.tools,
    maxSteps: d.max_steps ?? DEFAULT_MAX_STEPS,
    failover: d.failover ?? [],
    thinking: d.thinking,
    file,
  };
}

export function loadAgents(homeLayers: readonly string[]): AgentLoad {
  const agents = new Map<string, AgentConfig>([[DEFAULT_AGENT.name, DEFAULT_AGENT]]);
  const errors: string[] = [];
  for (const home of homeLayers) {
    const dir = configDir(home, "agents");
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((n) => n.endsWith(".md"))
        .sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        const agent = parseAgentFile(file, readFileSync(file, "utf8"));
        agents.set(agent.name, agent);
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
  }
  for (const agent of agents.values()) {
    for (const next of agent.failover) {
      if (!agents.has(next))
        errors.push(`${agent.file ?? agent.name}: failover: unknown agent "${next}"`);
    }
  }
  return { agents, errors };
}
