/**
 * An agent's tools with specifiers, as Claude Code's agent files write them: `Bash(git:*)` lets
 * the agent run only git commands, `Agent(worker, researcher)` (or `Task(…)`) lets its Task tool
 * start only those sub-agents; `disallowedTools: Bash(rm:*)` refuses the calls it covers. A call
 * outside them is refused with a tool error naming the agent and what it may do.
 */
import type { AgentConfig } from "../agents/definition.ts";
import {
  isletToolsOf,
  parseClaudeRule,
  ruleMatches,
  type ClaudeRule,
} from "../tools/claude-rule.ts";

function rules(texts: readonly string[] | undefined): ClaudeRule[] {
  const out: ClaudeRule[] = [];
  for (const text of texts ?? []) {
    const rule = parseClaudeRule(text);
    if (!("error" in rule)) out.push(rule);
  }
  return out;
}

/** `Agent(worker, researcher)`: the sub-agent names it allows. */
function agentNames(rule: ClaudeRule): string[] {
  return (rule.specifier ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A plugin's agent lists its siblings by bare name: `worker` is `plugin:worker` too. */
function namesAgent(listed: string, agent: AgentConfig, subagent: string): boolean {
  if (listed === subagent) return true;
  const colon = agent.name.indexOf(":");
  return colon > 0 && `${agent.name.slice(0, colon)}:${listed}` === subagent;
}

function covers(
  rule: ClaudeRule,
  agent: AgentConfig,
  call: { toolName: string; args: Record<string, unknown>; workdir: string },
  mode: "any" | "every",
): boolean {
  if (call.toolName === "Task" && isletToolsOf(rule).includes("Task")) {
    const subagent = call.args.subagent_type;
    return (
      typeof subagent === "string" && agentNames(rule).some((n) => namesAgent(n, agent, subagent))
    );
  }
  return ruleMatches(rule, call, mode);
}

/** Why the agent may not make this call, or undefined when it may. */
export function agentRuleRefusal(
  agent: AgentConfig,
  call: { toolName: string; args: Record<string, unknown>; workdir: string },
): string | undefined {
  const where = agent.file ? ` (${agent.file})` : "";
  const denied = rules(agent.deniedRules).find((r) => covers(r, agent, call, "any"));
  if (denied)
    return `Not run: agent "${agent.name}" may not use ${denied.text}${where}. Do not retry it; do without it.`;
  const mine = rules(agent.toolRules).filter((r) => isletToolsOf(r).includes(call.toolName));
  if (mine.length === 0 || mine.some((r) => covers(r, agent, call, "every"))) return undefined;
  return (
    `Not run: agent "${agent.name}" may use ${call.toolName} only as ${mine.map((r) => r.text).join(", ")}${where}; ` +
    `this call is outside ${mine.length === 1 ? "it" : "them"}. Do not retry it; stay within what the agent may do.`
  );
}

/**
 * The Task tool's description for an agent that may start only some sub-agents (`Agent(worker)`):
 * its list of agents (`- name: what it does` lines) keeps only those, so the model is not offered
 * what would be refused.
 */
export function taskDescriptionFor(agent: AgentConfig, description: string): string {
  const allowed = rules(agent.toolRules).filter((r) => isletToolsOf(r).includes("Task"));
  if (allowed.length === 0) return description;
  const may = (name: string) =>
    allowed.some((r) => agentNames(r).some((n) => namesAgent(n, agent, name)));
  // After "Agents:", each `- name: …` starts an agent's entry (its description may run on).
  let inList = false;
  let keep = true;
  const kept: string[] = [];
  for (const line of description.split("\n")) {
    const m = inList ? /^- (\S+): /.exec(line) : null;
    if (m) keep = may(m[1]!);
    if (keep) kept.push(line);
    if (line.endsWith("Agents:")) inList = true;
  }
  return kept.join("\n");
}
