/**
 * The engine's hook points. A HookHandler is one plugin's function for one timing; the plugin
 * runtime supplies them (conditions, once, isolate calls and fault containment live there), and
 * the pipeline in this folder applies the seed's Result semantics between calls.
 */
import type {
  AfterCompactionContext,
  AfterResponseContext,
  AfterToolContext,
  BeforeChatContext,
  BeforeCompactionContext,
  BeforeToolContext,
  BeforeToolResult,
  Message as SdkMessage,
  OnAgentSwitchContext,
  OnErrorContext,
  Result,
  TransformContext,
} from "../../../plugins/sdk/index.ts";
import { HookTimingSchema, type HookTimingName } from "../../core/hook-timings.ts";

/**
 * The model's id for the call a tool hook is about (Claude's `tool_use_id`). The engine's own
 * field, beside the SDK's context: code plugins are not promised it.
 */
export interface ToolCallIdentity {
  toolCallId?: string;
}

/** One call of the step before a model call, as Claude's PostToolBatch is told it. */
export interface BatchCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: string;
  error: string;
}

/**
 * Engine fields beside the SDK's contexts for Claude Code's events (code plugins are not
 * promised them): the tool calls whose results the model is about to read (PostToolBatch), and
 * what a compaction was (PostCompact).
 */
export interface ToolBatchDetail {
  toolBatch?: readonly BatchCall[];
}
export interface CompactionDetail {
  forced?: boolean;
  summary?: string;
}

export interface HookContexts {
  beforeChat: BeforeChatContext & ToolBatchDetail;
  afterResponse: AfterResponseContext;
  beforeToolExecution: BeforeToolContext & ToolCallIdentity;
  afterToolExecution: AfterToolContext & ToolCallIdentity;
  onError: OnErrorContext;
  beforeCompaction: BeforeCompactionContext;
  afterCompaction: AfterCompactionContext & CompactionDetail;
  onAgentSwitch: OnAgentSwitchContext;
  transformMessages: TransformContext;
}

/**
 * What Claude Code's shell hooks may add to a Result to act as Claude's do. Not in the SDK, and
 * the pipeline drops these fields from any other handler's result (`claudeHook`).
 */
export interface EngineExtras {
  /** beforeChat: the message goes before the turn's prompt (Claude's SessionStart context). */
  beforePrompt?: boolean;
  /** Tool points: the user turn ends once this step's calls are in, with this text shown. */
  stopTurn?: string;
  /** Shown to the user beside whatever else the result does (Claude's `systemMessage`). */
  shown?: string;
}

export interface HookResults {
  beforeChat: Result & EngineExtras;
  afterResponse: Result & EngineExtras;
  beforeToolExecution: BeforeToolResult & EngineExtras;
  afterToolExecution: Result & EngineExtras;
  onError: Result;
  beforeCompaction: Result & EngineExtras;
  afterCompaction: Result;
  onAgentSwitch: Result;
  transformMessages: SdkMessage[];
}

/** Only timings in the list (core/hook-timings.ts): a context for another one does not compile. */
type Listed<T extends HookTimingName> = T;

export type HookTiming = Listed<keyof HookContexts>;

/** In the order a turn reaches them; the one list lives with their names (core/hook-timings.ts). */
export const HOOK_TIMINGS: readonly HookTiming[] = HookTimingSchema.options;

/** A handler's `when` condition as it was tested for this call. */
export interface ConditionOutcome {
  text: string;
  matched: boolean;
}

/**
 * What one handler call came to. Faults never throw into the engine. `condition`: set when the
 * handler has one and it was tested (matched: the call went on; not: skipped).
 */
export type HookInvocation<T extends HookTiming> = (
  | { status: "ok"; result: HookResults[T] | undefined }
  /** Condition false, once already fired, plugin disabled… */
  | { status: "skipped"; reason: string }
  | { status: "error"; message: string }
) & { condition?: ConditionOutcome };

/** What a running handler may tell the windows watching (turn-deps.ts wires it to the events). */
export interface HookLive {
  /** What it is doing now (Claude's `statusMessage`), shown until it ends. */
  status(text: string): void;
}

export interface HookHandler<T extends HookTiming = HookTiming> {
  /** Plugin name: shown in notices, traces and injected-message sources. */
  readonly source: string;
  readonly timing: T;
  /** The handler fills in its own pluginConfig before calling into the plugin. */
  invoke(ctx: HookContexts[T], live?: HookLive): Promise<HookInvocation<T>>;
  /**
   * Adjacent handlers with the same key run at once, all given the same context, their results
   * then folded in order (Claude Code's hooks of one event run in parallel). Without a key a
   * handler runs alone and sees what the handlers before it rewrote.
   */
  readonly concurrent?: string;
  /**
   * A Claude Code shell hook: its results may carry EngineExtras, and at afterToolExecution it
   * runs only after calls that ran (Claude's PostToolUse). Other handlers also see calls that
   * were blocked, refused or never started, as the seed's hooks do.
   */
  readonly claudeHook?: boolean;
}

/** Handlers for a timing, in execution order (main/contributions/hook-sources.ts says which). */
export interface HookRegistry {
  handlers<T extends HookTiming>(timing: T): readonly HookHandler<T>[];
}

export const NO_HOOKS: HookRegistry = { handlers: () => [] };

/** One hook call of a turn (its schema is part of the agent events). */
export type { HookTraceEntry } from "../../core/events.ts";

/** A message a hook asked to put into history. */
export interface Injection {
  source: string;
  role: "user" | "assistant";
  content: string;
  eject: boolean;
  /** Put before the turn's prompt rather than at the end of history. */
  beforePrompt?: boolean;
}

export interface Notice {
  source: string;
  text: string;
}
