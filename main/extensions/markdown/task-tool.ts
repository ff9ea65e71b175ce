/**
 * The `Task` tool: the model hands a self-contained job to a sub-agent, which runs its own turn
 * with only its agent's tools (never Task itself), streams its progress under the Task card and
 * answers with its last text.
 */
import { z } from "zod";
import type { AgentEvent } from "../../turn/events.ts";
import { defineTool } from "../../tools/define.ts";
import { MAX_TIMEOUT_MS } from "../../tools/limits.ts";
import { ToolError, type ApproveCall, type Tool } from "../../tools/types.ts";
import { KEEP_ALL, leftOut, listingOf, type ListedItem } from "../../tools/listing.ts";

export interface SubAgentRunner {
  /** The agents a Task may run, with what they are for (read when the tool is described). */
  agents(): { name: string; description: string }[];
  /** Whether `run` takes this name: a listed agent, or one of Claude Code's built-in types. */
  runs(agent: string): boolean;
  /** Runs `prompt` as a fresh conversation with `agent`; resolves to its final text. */
  run(
    agent: string,
    prompt: string,
    opts: {
      signal: AbortSignal;
      onEvent(event: AgentEvent): void;
      approve?: ApproveCall;
      /** The conversation that runs the Task (SubagentStop hooks are told its id). */
      parent?: { sessionId: string; workdir: string };
    },
  ): Promise<{ status: string; text: string; error?: string }>;
}

/**
 * The sub-agent's events worth nesting under the Task card (and saving with the session): its
 * steps and what went wrong, not the stream of deltas, token counts and live output.
 */
const NESTED = new Set(["tool_call", "tool_result", "assistant", "notice", "error", "injected"]);

/** One line of progress for the Task card's live output, or null for events not worth one. */
function progressLine(e: AgentEvent): string | null {
  if (e.type === "tool_call") return `→ ${e.name} ${JSON.stringify(e.arguments).slice(0, 120)}\n`;
  if (e.type === "tool_result" && e.error) return `✗ ${e.name} failed\n`;
  if (e.type === "error") return `error: ${e.message}\n`;
  return null;
}

export function createTaskTool(runner: SubAgentRunner): Tool {
  const base = defineTool({
    name: "Task",
    description: "",
    args: {
      description: z.string().optional().describe("A few words on what the sub-agent does"),
      prompt: z.string().min(1).describe("The whole job: the sub-agent sees nothing else"),
      subagent_type: z.string().min(1).describe("The agent to run, by name"),
    },
    parallel: true,
    // Handing work to a sub-agent, whose every call is approved on its own.
    approval: "allow",
    source: "extension",
    timeoutMs: () => MAX_TIMEOUT_MS,
    async execute(args, ctx) {
      if (!runner.runs(args.subagent_type)) {
        const known = runner.agents().map((a) => a.name);
        throw new ToolError(`no agent "${args.subagent_type}"; agents: ${known.join(", ")}`);
      }
      const outcome = await runner.run(args.subagent_type, args.prompt, {
        signal: ctx.signal,
        // The sub-agent's calls are asked of the window of the conversation that runs the Task.
        approve: ctx.approve,
        parent: { sessionId: ctx.sessionId ?? "", workdir: ctx.workdir },
        onEvent: (event) => {
          if (ctx.callId && NESTED.has(event.type))
            ctx.emit?.({ type: "subagent", id: ctx.callId, agent: args.subagent_type, event });
          const line = progressLine(event);
          if (line) ctx.onOutput?.(line);
        },
      });
      if (outcome.status === "error")
        throw new ToolError(`${args.subagent_type} failed: ${outcome.error ?? "unknown error"}`);
      if (outcome.status === "stopped") throw new ToolError(`${args.subagent_type} was stopped`);
      return outcome.text.trim() === "" ? "(the sub-agent gave no answer)" : outcome.text;
    },
  });
  // Described when offered, so agents added or removed since start are named correctly; an agent
  // limited to some sub-agents (`Agent(worker)`) is shown only those (turn/agent-tool-rules.ts).
  // Built again only when the agents changed: hundreds of plugin agents make it a long text,
  // read at each model call.
  let last: { agents: { name: string; description: string }[]; items: ListedItem[] } | null = null;
  const items = (): ListedItem[] => {
    const agents = runner.agents();
    const same =
      last !== null &&
      (last.agents === agents ||
        (last.agents.length === agents.length &&
          agents.every(
            (a, i) =>
              a.name === last!.agents[i]!.name && a.description === last!.agents[i]!.description,
          )));
    if (same) return last!.items;
    last = {
      agents,
      items: agents.map((a) => {
        const description = a.description || "(no description)";
        return { kind: "agent", name: a.name, description, line: `- ${a.name}: ${description}` };
      }),
    };
    return last.items;
  };
  const listing = listingOf(
    items,
    (kept, left) =>
      "Run a sub-agent on a self-contained job and get its answer. It starts with an empty " +
      "history and only its own tools; give it everything it needs in `prompt`. Agents:\n" +
      [...kept.map((a) => a.line), ...(left > 0 ? [leftOut(left, "agents")] : [])].join("\n"),
  );
  return Object.defineProperty({ ...base, listing }, "description", {
    enumerable: true,
    get: () => listing.text(KEEP_ALL),
  });
}
