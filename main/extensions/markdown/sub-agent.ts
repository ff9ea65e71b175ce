/** Runs an agent as a sub-agent: a fresh, unsaved conversation whose tools never include Task. */
import { DEFAULT_AGENT, type AgentConfig } from "../../agents/definition.ts";
import type { EventSink } from "../../turn/events.ts";
import { AgentSession } from "../../turn/loop.ts";
import type { EngineDeps } from "../../turn/state.ts";
import type { SubAgentRunner } from "./task-tool.ts";

/**
 * Asked when a sub-agent answered (SubagentStop hooks): a reason keeps it going with that as the
 * next prompt. `active`: it already went on because of one; `answer`: what it just said.
 */
export type SubAgentStop = (
  parent: { id: string; workdir: string },
  agent: string,
  active: boolean,
  answer: string,
) => Promise<string | undefined>;

/** Asked when a sub-agent starts (SubagentStart hooks): context to give it before its prompt. */
export type SubAgentStart = (
  parent: { id: string; workdir: string },
  agent: string,
) => Promise<string | undefined>;

/** Tools that look and never change anything: what Claude's Explore and Plan agents have. */
const READ_ONLY_TOOLS = ["Read", "Glob", "Grep", "Ls", "TodoWrite"];

/**
 * Claude Code's built-in agent types, which plugins' prompts name ("dispatch a general-purpose
 * agent"): run on Islet's default agent when no agent of that name is installed; Explore and Plan
 * look only. Not listed to the model (it is told of Islet's own agents), only accepted.
 */
const CLAUDE_AGENT_TYPES: Record<string, { tools?: string[]; role: string }> = {
  "general-purpose": { role: "" },
  Explore: {
    tools: READ_ONLY_TOOLS,
    role: "You explore the codebase to answer a question: search and read, never change a file.",
  },
  Plan: {
    tools: READ_ONLY_TOOLS,
    role: "You research the codebase to plan a change: search and read, never change a file; answer with the plan.",
  },
};

/** The agent a Task runs by this name: installed ones first, then Claude's built-in types. */
function agentFor(agents: ReadonlyMap<string, AgentConfig>, name: string): AgentConfig | undefined {
  const installed = agents.get(name);
  if (installed) return installed;
  const type = Object.hasOwn(CLAUDE_AGENT_TYPES, name) ? CLAUDE_AGENT_TYPES[name] : undefined;
  if (!type) return undefined;
  const base = agents.get(DEFAULT_AGENT.name) ?? DEFAULT_AGENT;
  return {
    ...base,
    name,
    systemPrompt: type.role ? `${base.systemPrompt}\n${type.role}` : base.systemPrompt,
    ...(type.tools ? { tools: type.tools } : {}),
  };
}

/** How many times stop hooks may keep one sub-agent going (a hook that always blocks ends). */
const MAX_CONTINUATIONS = 3;

export function subAgentRunner(
  /** With a `version` (the engine's registry), the list is read again only when it moved on. */
  agents: ReadonlyMap<string, AgentConfig> & { readonly version?: number },
  /** The engine's deps for a conversation that is not saved, emitting to `emit`. */
  deps: (emit: EventSink) => EngineDeps,
  onStop?: SubAgentStop,
  onStart?: SubAgentStart,
): SubAgentRunner {
  let listed: { at: number; list: { name: string; description: string }[] } | null = null;
  return {
    agents: () => {
      if (agents.version !== undefined && listed?.at === agents.version) return listed.list;
      const list = [...agents.values()].map((a) => ({ name: a.name, description: a.description }));
      if (agents.version !== undefined) listed = { at: agents.version, list };
      return list;
    },
    runs: (agent) => agentFor(agents, agent) !== undefined,
    async run(agent, prompt, { signal, onEvent, approve, parent }) {
      const base = deps(onEvent);
      // No Task inside a Task: one level of sub-agents, as Claude Code does.
      const tools = { list: () => base.tools.list().filter((t) => t.name !== "Task") };
      const config = agentFor(agents, agent);
      const session = new AgentSession(
        {
          ...base,
          tools,
          session: null,
          approve: approve ?? base.approve,
          // One of Claude's built-in types: known to this sub-agent's session only.
          ...(config && !agents.has(agent) ? { agents: new Map([[agent, config]]) } : {}),
        },
        { agent, sessionId: "" },
      );
      const stop = (): void => session.stop();
      signal.addEventListener("abort", stop, { once: true });
      try {
        const where = { id: parent?.sessionId ?? "", workdir: parent?.workdir ?? base.workdir };
        // Claude adds SubagentStart's context to the sub-agent's; here it comes before the task.
        const context = onStart ? await onStart(where, agent) : undefined;
        let outcome = await session.send(context ? `${context}\n\n${prompt}` : prompt);
        for (let i = 0; onStop && outcome.status === "done" && i < MAX_CONTINUATIONS; i++) {
          const reason = await onStop(where, agent, i > 0, outcome.text);
          if (reason === undefined || signal.aborted) break;
          outcome = await session.send(reason);
        }
        return { status: outcome.status, text: outcome.text, error: outcome.error?.message };
      } finally {
        signal.removeEventListener("abort", stop);
      }
    },
  };
}
