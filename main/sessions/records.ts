/**
 * The records of a session file. A session is one JSONL file: the first line is a `meta` record,
 * every later line is one of the other records below, applied in order by `reconstruct.ts`.
 *
 * Format version history (the `v` on meta):
 *   1 — this layout.
 * A reader of version N reads every version <= N through `upgradeRecord`; records of a type it
 * does not know (written by a newer Islet) are skipped with a warning instead of failing the load.
 */
import { z } from "zod";
import type { Message } from "../core/message.ts";
import type { TodoItem } from "../tools/types.ts";
import type { Stats } from "../core/types.ts";
import type { AgentEvent } from "../core/events.ts";

export const SESSION_FORMAT_VERSION = 1;

const isoDate = z.string().min(1);

const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});

const messageShape = {
  id: z.string().min(1),
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
  kind: z.enum(["normal", "synthetic", "summary"]),
  createdAt: isoDate,
  thinking: z.string().optional(),
  thinkingSignature: z.string().optional(),
  toolCalls: z.array(toolCallSchema).optional(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  isError: z.boolean().optional(),
  source: z.string().optional(),
  eject: z.boolean().optional(),
};

/** Loose so fields added by later versions survive a load/re-save round trip. */
export const messageSchema = z.looseObject(messageShape);

export const todoSchema = z.object({
  content: z.string(),
  status: z.enum(["pending", "in_progress", "completed"]),
});

const count = z.number().finite();

export const statsSchema = z.object({
  startTime: z.string(),
  duration: count,
  interactions: count,
  turns: count,
  iterations: count,
  tools: z.object({ calls: count, errors: count }),
  parseRetries: count,
  compactions: count,
  tokens: z.object({ in: count, out: count }),
  topTools: z.array(z.object({ name: z.string(), count })),
});

export const metaRecordSchema = z.object({
  t: z.literal("meta"),
  v: z.number().int().positive(),
  id: z.string().min(1),
  /** Empty until the user or the first user message names the session. */
  title: z.string(),
  createdAt: isoDate,
  workdir: z.string(),
  agent: z.string(),
  provider: z.string(),
  model: z.string(),
  appVersion: z.string(),
  /** The session this one was forked from, or the parent of a sub-agent (Task) session. */
  parentId: z.string().optional(),
});

export const recordSchemas = {
  meta: metaRecordSchema,
  /** Appends a message; a message whose id is already present replaces it in place. */
  message: z.object({ t: z.literal("message"), message: messageSchema }),
  /** Drops messages by id (ejected plugin messages). Unknown ids are ignored. */
  remove: z.object({ t: z.literal("remove"), ids: z.array(z.string()) }),
  /** Replaces the whole history (compaction); later message records append to it. */
  reset: z.object({ t: z.literal("reset"), messages: z.array(messageSchema) }),
  title: z.object({ t: z.literal("title"), title: z.string() }),
  /** The full todo list after a TodoWrite (a snapshot, not a diff). */
  todos: z.object({ t: z.literal("todos"), todos: z.array(todoSchema) }),
  agent: z.object({ t: z.literal("agent"), agent: z.string(), reason: z.string().optional() }),
  /** Provider/model switch (failover, /model), so a resume continues on the same model. */
  model: z.object({ t: z.literal("model"), provider: z.string(), model: z.string() }),
  /** Last stats snapshot; lastApiTokens restores the context meter before the first new call. */
  stats: z.object({
    t: z.literal("stats"),
    stats: statsSchema,
    lastApiTokens: count.optional(),
  }),
  /** Snapshot of read-before-write state (path -> the version stamp the tools recorded). */
  files: z.object({ t: z.literal("files"), seen: z.record(z.string(), count) }),
  /** Snapshot of deferred tools the session loaded, so they stay available after resume. */
  tools: z.object({ t: z.literal("tools"), loaded: z.array(z.string()) }),
  /**
   * Namespaced key/value the engine or plugins need back on resume (think mode, mode, injector
   * `once` state, …). Last write per key wins; `value: null` deletes the key.
   */
  state: z.object({ t: z.literal("state"), key: z.string().min(1), value: z.unknown() }),
  /**
   * One display event (an AgentEvent of main/core/history.ts HISTORY_EVENT_TYPES), in the order
   * it was emitted: what the app shows when the session is reopened. Only `type` is checked when
   * a file loads; the event is validated when the history is read (a bad one is skipped there).
   * Added within format 1: older readers skip it as an unknown record.
   * `ref`: the event's text is in that message, whose record comes next after the event's
   * (`user_message`, `assistant`: its content; `thinking`: its thinking; `tool_result`: `output`
   * is its content), so it is not written twice.
   */
  event: z.object({
    t: z.literal("event"),
    event: z.looseObject({ type: z.string().min(1) }),
    ref: z.string().min(1).optional(),
  }),
} as const;

export type RecordType = keyof typeof recordSchemas;
export type MetaRecord = z.infer<typeof metaRecordSchema>;

/**
 * Written records use the engine's own types (Message, TodoItem, Stats) so callers need no casts;
 * the zod schemas above mirror them and are checked against them below.
 */
export type SessionRecord =
  | MetaRecord
  | { t: "message"; message: Message }
  | { t: "remove"; ids: string[] }
  | { t: "reset"; messages: Message[] }
  | { t: "title"; title: string }
  | { t: "todos"; todos: TodoItem[] }
  | { t: "agent"; agent: string; reason?: string }
  | { t: "model"; provider: string; model: string }
  | { t: "stats"; stats: Stats; lastApiTokens?: number }
  | { t: "files"; seen: Record<string, number> }
  | { t: "tools"; loaded: string[] }
  | { t: "state"; key: string; value: unknown }
  | { t: "event"; event: AgentEvent; ref?: string };

/** Everything but meta: what `SessionStore.append` accepts. */
export type BodyRecord = Exclude<SessionRecord, MetaRecord>;

// Compile-time proof that the schemas and the engine types agree (fails tsc if either drifts).
type Assert<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type _SchemaMatchesTypes = [
  Assert<Mutual<z.infer<typeof todoSchema>, TodoItem>>,
  Assert<Mutual<z.infer<typeof statsSchema>, Stats>>,
  Assert<Mutual<z.infer<z.ZodObject<typeof messageShape>>, Message>>,
];

export function isRecordType(t: unknown): t is RecordType {
  return typeof t === "string" && Object.hasOwn(recordSchemas, t);
}

/**
 * Brings a raw record written by format version `fromVersion` up to the current shape. Version 1
 * is current, so this is the identity; when v2 changes a record, convert it here, keyed on
 * `fromVersion`, and never change how v1 files are read.
 */
export function upgradeRecord(
  raw: Record<string, unknown>,
  fromVersion: number,
): Record<string, unknown> {
  void fromVersion;
  return raw;
}

/**
 * Serializes a record as one line. Message records put `t` and the message id first so
 * `list()` can count and identify messages by sniffing the line prefix instead of parsing it.
 */
export function encodeRecord(record: SessionRecord): string {
  if (record.t === "message") {
    const message = record.message;
    // Messages are mostly made id first (makeMessage): no copy to put it there.
    if (firstKey(message) === "id") return `{"t":"message","message":${JSON.stringify(message)}}\n`;
    const { id, ...rest } = message;
    return JSON.stringify({ t: "message", message: { id, ...rest } }) + "\n";
  }
  if (record.t === "event") {
    const { event, ref } = record;
    return (
      JSON.stringify(ref === undefined ? { t: "event", event } : { t: "event", event, ref }) + "\n"
    );
  }
  return JSON.stringify(record) + "\n";
}

function firstKey(object: object): string | undefined {
  for (const key in object) return key;
  return undefined;
}

export const MESSAGE_LINE_PREFIX = '{"t":"message","message":{"id":"';
/** Event lines start so (encodeRecord writes `t` first): loads that do not need them skip them unparsed. */
export const EVENT_LINE_PREFIX = '{"t":"event",';
