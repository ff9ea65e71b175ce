/** Runs an agent as a sub-agent: a fresh, unsaved conversation whose tools never include Task. */
import type { AgentConfig } from "../../agents/definition.ts";
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

/** How many times stop hooks may keep one sub-agent going (a hook that always blocks ends). */
const MAX_CONTINUATIONS = 3;

export function subAgentRunner(
  agents: ReadonlyMap<string, AgentConfig>,
  /** The engine's deps for a conversation that is not saved, emitting to `emit`. */
  deps: (emit: EventSink) => EngineDeps,
  onStop?: SubAgentStop,
  onStart?: SubAgentStart,
): SubAgentRunner {
  return {
    agents: () => [...agents.values()].map((a) => ({ name: a.name, description: a.description })),
    async run(agent, prompt, { signal, onEvent, approve, parent }) {
      const base = deps(onEvent);
      // No Task inside a Task: one level of sub-agents, as Claude Code does.
      const tools = { list: () => base.tools.list().filter((t) => t.name !== "Task") };
      const session = new AgentSession(
        { ...base, tools, session: null, approve: approve ?? base.approve },
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
