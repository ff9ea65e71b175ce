/**
 * What the engine tells its host while it works, defined once as zod schemas: the turn loop emits
 * these, `islet run --json` prints the public ones, and the bridge streams all of them to the UI
 * (both transports validate against the same schemas).
 *
 * Adding an event is a one-place change: add its schema to PUBLIC_EVENTS (part of `run --json`,
 * SPEC §10) or INTERNAL_EVENTS (UI only). Plain zod, no Node: the renderer bundles this file.
 */
import { z } from "zod";
import { HookTimingSchema } from "./hook-timings.ts";
import { DenialSchema } from "./denial.ts";
import { RemedySchema } from "./remedy.ts";
import type { ErrorType, Stats, TokenState } from "./types.ts";

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.strictObject({ type: z.literal(type), ...shape });

/** Provider error classes (the SDK's ErrorType; "" when unclassified). */
export const ErrorTypeSchema = z.enum([
  "rate_limit",
  "auth",
  "network",
  "server",
  "content_filter",
  "credit_exhausted",
  "model_unavailable",
  "context_exhausted",
  "",
]) satisfies z.ZodType<ErrorType>;

export const StatsSchema = z.strictObject({
  startTime: z.string(),
  duration: z.number(),
  interactions: z.number(),
  turns: z.number(),
  iterations: z.number(),
  tools: z.strictObject({ calls: z.number(), errors: z.number() }),
  parseRetries: z.number(),
  compactions: z.number(),
  tokens: z.strictObject({ in: z.number(), out: z.number() }),
  topTools: z.array(z.strictObject({ name: z.string(), count: z.number() })),
}) satisfies z.ZodType<Stats>;

export const TokenStateSchema = z.strictObject({
  estimate: z.number(),
  lastApi: z.number(),
  percent: z.number(),
  max: z.number(),
}) satisfies z.ZodType<TokenState>;

/**
 * What a hook's result changed, one label each: "message" (injected), "notice", "disableTools",
 * "appendSystem", "skip", "arguments" (rewritten), "block" (tool blocked), "output" (replaced),
 * "response.content", "response.skip", "error.retry", "error.skip", "compaction.skip",
 * "messages" (transformMessages rewrote the request), "rejected" (a result the engine refused),
 * "stopTurn" (a Claude Code hook's `continue: false` ends the turn after the tool step).
 */
export const HookEffect = z.strictObject({
  change: z.string(),
  /** What it became, shortened for display (the injected text, the new arguments, …). */
  summary: z.string(),
});
export type HookEffect = z.infer<typeof HookEffect>;

/** One hook call of a turn, for the app's hook timeline. */
export const HookTraceEntry = z.strictObject({
  /** The plugin (or other hook source) whose handler ran. */
  source: z.string(),
  timing: HookTimingSchema,
  status: z.enum(["ok", "skipped", "error"]),
  /** Why it was skipped or what failed. */
  detail: z.string().optional(),
  /** The handler's `when` condition and whether it matched (absent: it has none). */
  condition: z.strictObject({ text: z.string(), matched: z.boolean() }).optional(),
  durationMs: z.number(),
  /** Short labels of what the result changed, e.g. ["message", "disableTools"]. */
  changed: z.array(z.string()),
  /** The same changes with what they changed to, in the order of `changed`. */
  effects: z.array(HookEffect).optional(),
});
export type HookTraceEntry = z.infer<typeof HookTraceEntry>;

/** The events `islet run --json` prints (SPEC §10), in that contract's shape. */
export const PUBLIC_EVENTS = [
  event("assistant_delta", { text: z.string() }),
  /** An attempt failed (reason): its deltas, `text`, do not count and are never saved. */
  event("assistant_withdrawn", { text: z.string(), reason: z.string() }),
  /** Final text of one model step (what was streamed, before AfterResponse rewrites). */
  event("assistant", { text: z.string() }),
  event("thinking", { text: z.string() }),
  event("tool_call", {
    id: z.string(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
  }),
  event("tool_result", {
    id: z.string(),
    name: z.string(),
    output: z.string(),
    error: z.boolean(),
    durationMs: z.number(),
    /** It did not run for want of approval: shown as a choice, not a failure. */
    denied: DenialSchema.optional(),
  }),
  event("notice", { source: z.string(), text: z.string() }),
  event("injected", {
    source: z.string(),
    role: z.enum(["user", "assistant"]),
    text: z.string(),
  }),
  event("agent_switch", { from: z.string(), to: z.string(), reason: z.string() }),
  event("compaction", {
    forced: z.boolean(),
    success: z.boolean(),
    preMessages: z.number(),
    postMessages: z.number(),
  }),
  event("error", {
    errorType: ErrorTypeSchema,
    message: z.string(),
    /** What the app offers beside the error instead of the message's CLI advice. */
    remedy: RemedySchema.optional(),
  }),
  event("done", { stats: StatsSchema, sessionId: z.string() }),
] as const;

/** For the UI only: the user's prompt, streaming thinking, the context meter, retries, the hook timeline. */
export const INTERNAL_EVENTS = [
  /** A user turn starts with this prompt (every window on the conversation, and the saved history, see it). */
  event("user_message", { text: z.string() }),
  /** What a slash command that did not reach the model answered (`/help`, `/agent NAME`…). */
  event("command_output", { name: z.string(), output: z.string() }),
  event("thinking_delta", { text: z.string() }),
  event("tokens", { tokens: TokenStateSchema }),
  event("retry", { attempt: z.number(), delayMs: z.number(), reason: z.string() }),
  /**
   * Output of a running tool as it arrives (main/turn/tool-output.ts: coalesced, capped; `dropped`:
   * characters left out just before `text`). Never saved: the `tool_result` is.
   */
  event("tool_output", { id: z.string(), text: z.string(), dropped: z.number().optional() }),
  /**
   * Progress of a sub-agent the Task call `id` runs: `event` is the sub-agent's own event (an
   * AgentEvent; kept loose here so the schema is not recursive), `agent` its name.
   */
  event("subagent", {
    id: z.string(),
    agent: z.string(),
    event: z.looseObject({ type: z.string() }),
  }),
  /**
   * A hook that says what it is doing (a Claude Code hook's `statusMessage`) started (`running`)
   * or ended: shown while it runs, never saved.
   */
  event("hook_status", { source: z.string(), text: z.string(), running: z.boolean() }),
  /**
   * One hook point's calls. `turn`: the user turn (1-based, counted over the session); `step`: the
   * model step within it; `toolCallId`/`toolName`: the tool call a tool hook ran for.
   */
  /**
   * A user turn over its prompt budget for extensions offers only `offered` of the `total` skills,
   * agents and plugin or MCP tools (taking ~`tokens` of the `budget` tokens), the rest one
   * SearchTools call away; sent when chosen and again when a search (`searched`) adds some.
   */
  event("extensions_offered", {
    offered: z.number(),
    total: z.number(),
    searched: z.boolean(),
    budget: z.number(),
    tokens: z.number(),
    turn: z.number(),
  }),
  event("hook_trace", {
    entries: z.array(HookTraceEntry),
    turn: z.number().optional(),
    step: z.number().optional(),
    toolCallId: z.string().optional(),
    toolName: z.string().optional(),
  }),
] as const;

export const AgentEvent = z.discriminatedUnion("type", [...PUBLIC_EVENTS, ...INTERNAL_EVENTS]);
export type AgentEvent = z.infer<typeof AgentEvent>;
export type AgentEventType = AgentEvent["type"];

export const PUBLIC_EVENT_TYPES: ReadonlySet<AgentEventType> = new Set(
  PUBLIC_EVENTS.map((schema) => schema.shape.type.value),
);

export type EventSink = (event: AgentEvent) => void;
