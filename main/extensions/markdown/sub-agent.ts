/** Runs an agent as a sub-agent: a fresh, unsaved conversation whose tools never include Task. */
import type { AgentConfig } from "../../agents/definition.ts";
import type { EventSink } from "../../agent/events.ts";
import { AgentSession } from "../../agent/loop.ts";
import type { EngineDeps } from "../../agent/state.ts";
import type { SubAgentRunner } from "./task-tool.ts";

export function subAgentRunner(
  agents: ReadonlyMap<string, AgentConfig>,
  /** The engine's deps for a conversation that is not saved, emitting to `emit`. */
  deps: (emit: EventSink) => EngineDeps,
): SubAgentRunner {
  return {
    agents: () => [...agents.values()].map((a) => ({ name: a.name, description: a.description })),
    async run(agent, prompt, { signal, onEvent, approve }) {
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
        const outcome = await session.send(prompt);
        return { status: outcome.status, text: outcome.text, error: outcome.error?.message };
      } finally {
        signal.removeEventListener("abort", stop);
      }
    },
  };
}
