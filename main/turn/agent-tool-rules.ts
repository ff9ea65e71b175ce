/**
 * An agent's tools with specifiers, as Claude Code's agent files write them: `Bash(git:*)` lets
 * the agent run only git commands, `Agent(worker, researcher)` (or `Task(…)`) lets its Task tool
 * start only those sub-agents; `disallowedTools: Bash(rm:*)` refuses the calls it covers. A call
 * outside them is refused with a tool error naming the agent and what it may do.
 */
import type { AgentConfig } from "../agents/definition.ts";
import type { ListedItem } from "../tools/listing.ts";
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
 * For an agent that may start only some sub-agents (`Agent(worker)`): which of the Task tool's
 * listed agents it is shown, so the model is not offered what would be refused. Undefined when
 * it may start any.
 */
export function subAgentsListed(agent: AgentConfig): ((item: ListedItem) => boolean) | undefined {
  // One filter per agent: the Task listing keeps its text by the filters it was made with.
  if (listedFilters.has(agent)) return listedFilters.get(agent);
  const allowed = rules(agent.toolRules).filter((r) => isletToolsOf(r).includes("Task"));
  const filter =
    allowed.length === 0
      ? undefined
      : (item: ListedItem) =>
          item.kind !== "agent" ||
          allowed.some((r) => agentNames(r).some((n) => namesAgent(n, agent, item.name)));
  listedFilters.set(agent, filter);
  return filter;
}

const listedFilters = new WeakMap<AgentConfig, ((item: ListedItem) => boolean) | undefined>();
