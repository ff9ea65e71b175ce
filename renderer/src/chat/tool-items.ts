/**
 * A tool call's card in the transcript, from its events: the call, its output while it runs (the
 * newest LIVE_KEEP characters), a Task's sub-agent and its tool calls, then its result. Pure, as
 * the reducer that uses it (transcript.ts).
 */
import type { AgentEvent } from "../../../main/bridge/contract.ts";
import type { Denial } from "../../../main/core/denial.ts";

type EventOf<T extends AgentEvent["type"]> = Extract<AgentEvent, { type: T }>;

export interface ToolItem {
  kind: "tool";
  id: number;
  callId: string;
  name: string;
  arguments: Record<string, unknown>;
  /** "denied": not run for want of approval (who said no: `denied`); not a failure. */
  state: "running" | "done" | "error" | "stopped" | "denied";
  denied?: Denial;
  output: string | null;
  durationMs: number | null;
  /** Output so far while it runs (`tool_output`; its newest LIVE_KEEP characters). */
  live: string;
  /** Characters of live output left out (by the engine's cap or LIVE_KEEP). */
  liveDropped: number;
  /** A Task's sub-agent (`subagent` events): its name and its tool calls, in order. */
  agent: string | null;
  steps: SubStep[];
}

/** One tool call of a sub-agent, shown under the Task card that runs it. */
export interface SubStep {
  callId: string;
  name: string;
  arguments: Record<string, unknown>;
  state: "running" | "done" | "error";
}

/** A sub-agent's tool calls beyond this many are counted, not kept (a runaway sub-agent). */
export const SUB_STEPS_KEEP = 200;

/** A running tool's live output keeps this many of its newest characters (as a result is cut). */
export const LIVE_KEEP = 30_000;

/** The card of a call the model just made. */
export function toolItem(id: number, e: EventOf<"tool_call">): ToolItem {
  return {
    kind: "tool",
    id,
    callId: e.id,
    name: e.name,
    arguments: e.arguments,
    state: "running",
    output: null,
    durationMs: null,
    live: "",
    liveDropped: 0,
    agent: null,
    steps: [],
  };
}

/** The card after one more event of its call. */
export function withToolEvent(
  prev: ToolItem,
  e: EventOf<"subagent" | "tool_output" | "tool_result">,
): ToolItem {
  if (e.type === "subagent") {
    const inner = e.event;
    let steps = prev.steps;
    if (inner.type === "tool_call" && typeof inner.id === "string" && steps.length < SUB_STEPS_KEEP)
      steps = [
        ...steps,
        {
          callId: inner.id,
          name: String(inner.name),
          arguments: (inner.arguments ?? {}) as Record<string, unknown>,
          state: "running",
        },
      ];
    if (inner.type === "tool_result")
      steps = steps.map((st) =>
        st.callId === inner.id ? { ...st, state: inner.error === true ? "error" : "done" } : st,
      );
    return { ...prev, agent: e.agent, steps };
  }
  if (e.type === "tool_output") {
    if (prev.state !== "running") return prev;
    let live = prev.live + e.text;
    let liveDropped = prev.liveDropped + (e.dropped ?? 0);
    if (live.length > LIVE_KEEP) {
      liveDropped += live.length - LIVE_KEEP;
      live = live.slice(live.length - LIVE_KEEP);
    }
    return { ...prev, live, liveDropped };
  }
  return {
    ...prev,
    state: e.denied ? "denied" : e.error ? "error" : "done",
    ...(e.denied ? { denied: e.denied } : {}),
    output: e.output,
    durationMs: e.durationMs,
    // The result holds the whole output: the live copy is no longer needed.
    live: "",
    liveDropped: 0,
  };
}
