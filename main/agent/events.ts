/** What the engine tells its host while it works. The CLI's `run --json` prints the public ones. */
import type { ErrorType, Stats, TokenState } from "../../plugins/sdk/index.ts";
import type { HookTraceEntry } from "./hooks/types.ts";

export type AgentEvent =
  | { type: "assistant_delta"; text: string }
  /** An attempt failed (reason): its deltas, `text`, do not count and are never saved. */
  | { type: "assistant_withdrawn"; text: string; reason: string }
  /** Final text of one model step (what was streamed, before AfterResponse rewrites). */
  | { type: "assistant"; text: string }
  | { type: "thinking"; text: string }
  | { type: "thinking_delta"; text: string }
  | { type: "tool_call"; id: string; name: string; arguments: Record<string, unknown> }
  | {
      type: "tool_result";
      id: string;
      name: string;
      output: string;
      error: boolean;
      durationMs: number;
    }
  | { type: "notice"; source: string; text: string }
  | { type: "injected"; source: string; role: "user" | "assistant"; text: string }
  | { type: "agent_switch"; from: string; to: string; reason: string }
  | {
      type: "compaction";
      forced: boolean;
      success: boolean;
      preMessages: number;
      postMessages: number;
    }
  | { type: "error"; errorType: ErrorType; message: string }
  | { type: "done"; stats: Stats; sessionId: string }
  /** Internal: context meter updates, retries, hook timeline (not part of `run --json`). */
  | { type: "tokens"; tokens: TokenState }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  | { type: "hook_trace"; entries: HookTraceEntry[] };

/** The events `islet run --json` prints (SPEC §10), in that contract's shape. */
export const PUBLIC_EVENT_TYPES: ReadonlySet<AgentEvent["type"]> = new Set([
  "assistant_delta",
  "assistant_withdrawn",
  "assistant",
  "thinking",
  "tool_call",
  "tool_result",
  "notice",
  "injected",
  "agent_switch",
  "compaction",
  "error",
  "done",
]);

export type EventSink = (event: AgentEvent) => void;
