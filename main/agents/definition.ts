/** Agents: named configurations of prompt, model, tools and step limit, with a failover chain. */
import os from "node:os";
import type { ThinkMode } from "../core/types.ts";

export interface AgentConfig {
  name: string;
  description: string;
  /** The agent's own system prompt (the body of its .md file). */
  systemPrompt: string;
  /** Provider name from providers.yaml (or a provider kind); unset = the session default. */
  provider?: string;
  /** Model name; unset = the session default. */
  model?: string;
  /** Allowed tool name patterns (`*` wildcards); unset = every tool. */
  tools?: string[];
  /** Tool name patterns withheld even when `tools` allows them (Claude's `disallowedTools`). */
  disallowedTools?: string[];
  /**
   * Claude's rules with specifiers from `tools` for a tool listed only that way (`Bash(git:*)`,
   * `Agent(worker, researcher)`): its calls must fall within one of them.
   */
  toolRules?: string[];
  /** Claude's rules with specifiers from `disallowedTools` (`Bash(rm:*)`): calls they cover are refused. */
  deniedRules?: string[];
  maxSteps: number;
  /** Agents tried in order when this one's provider keeps failing. */
  failover: string[];
  thinking?: ThinkMode;
  /**
   * Percent of the model's window the extensions' descriptions (skills, agents, plugin and MCP
   * tools) may take in a request; unset: 10. Past it a turn offers the most relevant ones.
   */
  extensionsBudget?: number;
  /**
   * Percent of the model's window what hooks add at one point (SessionStart's context, plugins'
   * messages) may take; unset: 25. Past it each text is cut to an equal part.
   */
  hookContextBudget?: number;
  /** Where it was defined (absent for the built-in default). */
  file?: string;
}

export const DEFAULT_MAX_STEPS = 50;

export const DEFAULT_AGENT: AgentConfig = {
  name: "default",
  description: "General coding and research assistant with every tool.",
  systemPrompt: [
    "You are Islet, a careful and capable assistant working in the user's project.",
    "Use the tools to inspect files before changing them; read a file before you Write or Patch it.",
    "Keep a todo list with TodoWrite for multi-step work. Prefer small, verifiable steps.",
    "When the task is finished, call Done with a short summary.",
  ].join("\n"),
  maxSteps: DEFAULT_MAX_STEPS,
  failover: [],
};

/** Facts every agent gets appended to its prompt. */
export function environmentPrompt(workdir: string, now = new Date()): string {
  return [
    "<environment>",
    `Working directory: ${workdir}`,
    `Platform: ${os.platform()} ${os.arch()}`,
    `Date: ${now.toISOString().slice(0, 10)}`,
    "</environment>",
  ].join("\n");
}
