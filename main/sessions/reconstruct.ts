/** Turns the text of a session file into the state a resumed conversation starts from. */
import type { Message } from "../core/message.ts";
import type { TodoItem } from "../tools/types.ts";
import type { Stats } from "../core/types.ts";
import type { Problem } from "../host/problem.ts";
import { statsRecordProblem } from "./stats-check.ts";
import { messageProblem } from "./message-check.ts";
import type { AgentEvent } from "../core/events.ts";
import {
  EVENT_LINE_PREFIX,
  SESSION_FORMAT_VERSION,
  isRecordType,
  metaRecordSchema,
  recordSchemas,
  upgradeRecord,
  type BodyRecord,
  type MetaRecord,
} from "./records.ts";
import { isTitleSource, titleFromText } from "./title.ts";

/** A line of a session file, as its problems name it. */
export interface LineOf {
  file: string;
  line: number;
}

/** A saved display event, checked only for its `type` so far, and where it was read. */
export interface SavedEvent {
  event: AgentEvent;
  /** The file and line, for the warning when the event turns out to be invalid. */
  where: LineOf;
}

/** What a session's display history is made of (see sessions/history.ts). */
export interface SavedHistory {
  /** The messages saved before the session's first event record (a session of an older Islet). */
  legacy: Message[];
  events: SavedEvent[];
}

export interface ReconstructOptions {
  /** Also collect the display events; without it their lines are skipped unparsed. */
  history?: boolean;
}

export interface SessionState {
  /** As written when the session was created (title there is the initial one). */
  meta: MetaRecord;
  /** Effective title: last rename, else meta's, else from the first user message, else "". */
  title: string;
  messages: Message[];
  todos: TodoItem[];
  /** Current agent, provider and model after any switches. */
  agent: string;
  provider: string;
  model: string;
  stats: Stats | null;
  lastApiTokens: number | null;
  seenFiles: Record<string, number>;
  loadedTools: string[];
  /** Namespaced engine/plugin state (see the `state` record). */
  state: Record<string, unknown>;
  /** One per skipped or dropped line, naming the file and line number. */
  warnings: Problem[];
  /** Null unless asked for (ReconstructOptions.history). */
  history: SavedHistory | null;
}

export type Decoded = { ok: true; record: BodyRecord | MetaRecord } | { ok: false; why: string };

/** Validates one parsed line (after upgrading it from `version`) into a typed record. */
export function decode(raw: unknown, version: number): Decoded {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return { ok: false, why: "not a record object" };
  const upgraded = upgradeRecord(raw as Record<string, unknown>, version);
  const t = upgraded.t;
  if (!isRecordType(t)) {
    return {
      ok: false,
      why: `unknown record type ${JSON.stringify(t)} (written by a newer Islet?)`,
    };
  }
  // Messages dominate a session's size: check them structurally, keep zod for everything else.
  if (t === "message") {
    const problem = messageProblem(upgraded.message);
    if (problem) return { ok: false, why: problem };
    return { ok: true, record: { t, message: upgraded.message as Message } };
  }
  if (t === "event") {
    const e = upgraded.event;
    if (typeof e !== "object" || e === null || Array.isArray(e))
      return { ok: false, why: "event.event must be an object" };
    if (typeof (e as { type?: unknown }).type !== "string")
      return { ok: false, why: "event.type must be a string" };
    const ref = upgraded.ref;
    if (ref === undefined) return { ok: true, record: { t, event: e as AgentEvent } };
    if (typeof ref !== "string" || ref === "")
      return { ok: false, why: "event.ref must be a message id" };
    return { ok: true, record: { t, event: e as AgentEvent, ref } };
  }
  if (t === "reset") {
    if (!Array.isArray(upgraded.messages))
      return { ok: false, why: "reset.messages must be an array" };
    for (const m of upgraded.messages as unknown[]) {
      const problem = messageProblem(m);
      if (problem) return { ok: false, why: `reset: ${problem}` };
    }
    return { ok: true, record: { t, messages: upgraded.messages as Message[] } };
  }
  if (t === "stats") {
    const problem = statsRecordProblem(upgraded);
    if (problem) return { ok: false, why: `invalid stats record: ${problem}` };
    return { ok: true, record: upgraded as BodyRecord };
  }
  const parsed = recordSchemas[t].safeParse(upgraded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    return { ok: false, why: `invalid ${t} record: ${where}${issue?.message ?? "invalid"}` };
  }
  return { ok: true, record: parsed.data as BodyRecord | MetaRecord };
}

/** Mutable fold target; `finish` turns it into a SessionState. */
class Builder {
  messages = new Map<string, Message>();
  explicitTitle: string | null = null;
  firstUserTitle = "";
  todos: TodoItem[] = [];
  stats: Stats | null = null;
  lastApiTokens: number | null = null;
  seenFiles: Record<string, number> = {};
  loadedTools: string[] = [];
  state: Record<string, unknown> = {};
  events: SavedEvent[] = [];
  /** Events whose text is in a message still to come, by message id (the `ref` of event records). */
  private waiting = new Map<string, Record<string, unknown>[]>();
  /** Messages as they stood at the first event record; null while there was none. */
  legacy: Message[] | null = null;
  agent: string;
  provider: string;
  model: string;
  meta: MetaRecord;

  constructor(meta: MetaRecord) {
    this.meta = meta;
    this.agent = meta.agent;
    this.provider = meta.provider;
    this.model = meta.model;
  }

  private noteMessage(m: Message): void {
    if (this.firstUserTitle === "" && isTitleSource(m))
      this.firstUserTitle = titleFromText(m.content);
  }

  apply(r: BodyRecord): void {
    switch (r.t) {
      case "message":
        if (this.waiting.size > 0) this.fill(r.message);
        // Map.set on an existing id keeps its position: an update replaces in place.
        this.messages.set(r.message.id, r.message);
        this.noteMessage(r.message);
        return;
      case "remove":
        for (const id of r.ids) this.messages.delete(id);
        return;
      case "reset":
        this.messages = new Map(r.messages.map((m) => [m.id, m]));
        for (const m of r.messages) this.noteMessage(m);
        return;
      case "title":
        // An empty rename clears the title back to the default.
        this.explicitTitle = r.title === "" ? null : r.title;
        return;
      case "todos":
        this.todos = r.todos;
        return;
      case "agent":
        this.agent = r.agent;
        return;
      case "model":
        this.provider = r.provider;
        this.model = r.model;
        return;
      case "stats":
        this.stats = r.stats;
        if (r.lastApiTokens !== undefined) this.lastApiTokens = r.lastApiTokens;
        return;
      case "files":
        this.seenFiles = r.seen;
        return;
      case "tools":
        this.loadedTools = r.loaded;
        return;
      case "state":
        if (r.value === null) delete this.state[r.key];
        else this.state[r.key] = r.value;
        return;
      case "event":
        // Collected by addEvent, only when the history is wanted.
        return;
    }
  }

  /**
   * A command line the user typed is an event of its own, its prompt a message after it: the
   * line names the session (a prompt's own event carries no text, its message does).
   */
  noteEvent(event: AgentEvent): void {
    if (this.firstUserTitle === "" && event.type === "user_message" && event.text?.trim())
      this.firstUserTitle = titleFromText(event.text);
  }

  addEvent(event: AgentEvent, where: LineOf, ref: string | undefined): void {
    this.legacy ??= [...this.messages.values()];
    // A copy: the text filled in below must not change the parsed line's object.
    const saved = ref === undefined ? event : ({ ...event } as AgentEvent);
    if (ref !== undefined) {
      const list = this.waiting.get(ref);
      if (list) list.push(saved as Record<string, unknown>);
      else this.waiting.set(ref, [saved as Record<string, unknown>]);
    }
    this.events.push({ event: saved, where });
  }

  /** Gives the events waiting for this message their text (left without: the event is invalid). */
  private fill(m: Message): void {
    const events = this.waiting.get(m.id);
    if (!events) return;
    this.waiting.delete(m.id);
    for (const event of events) {
      if (event.type === "tool_result") event.output = m.content;
      else if (event.type === "thinking") event.text = m.thinking;
      else event.text = m.content;
    }
  }

  finish(warnings: Problem[], history: boolean): SessionState {
    const messages = [...this.messages.values()];
    return {
      meta: this.meta,
      title: this.explicitTitle ?? (this.meta.title || this.firstUserTitle),
      messages,
      todos: this.todos,
      agent: this.agent,
      provider: this.provider,
      model: this.model,
      stats: this.stats,
      lastApiTokens: this.lastApiTokens,
      seenFiles: this.seenFiles,
      loadedTools: this.loadedTools,
      state: this.state,
      warnings,
      history: history ? { legacy: this.legacy ?? messages, events: this.events } : null,
    };
  }
}

export interface Fallback {
  id: string;
  createdAt: string;
}

/** A stand-in when the meta line itself is lost, so the rest of the session still loads. */
export function placeholderMeta(fallback: Fallback): MetaRecord {
  return {
    t: "meta",
    v: SESSION_FORMAT_VERSION,
    id: fallback.id,
    title: "",
    createdAt: fallback.createdAt,
    workdir: "",
    agent: "",
    provider: "",
    model: "",
    appVersion: "",
  };
}

/**
 * Folds every line of a session file. A bad last line is a torn write (dropped); a bad line
 * elsewhere is skipped; both leave a warning naming `file` and the 1-based line number.
 */
export function reconstruct(
  text: string,
  file: string,
  fallback: Fallback,
  options: ReconstructOptions = {},
): SessionState {
  const history = options.history === true;
  const lines = text.split("\n");
  // A file ending in "\n" splits into a trailing "": that is not a line.
  if (lines[lines.length - 1] === "") lines.pop();
  const warnings: Problem[] = [];
  const warn = (where: LineOf | { file: string }, title: string) =>
    warnings.push({ source: "sessions", ...where, title });
  let builder: Builder | null = null;
  let version = SESSION_FORMAT_VERSION;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") continue;
    // Display events are most of a file's lines after messages: a plain load skips them unparsed,
    // and says nothing of a damaged one; only a command line typed before the session had a title
    // is looked at, for its title.
    if (!history && builder !== null && line.startsWith(EVENT_LINE_PREFIX)) {
      if (builder.firstUserTitle === "" && line.includes('"user_message"')) {
        try {
          const record = JSON.parse(line) as { event?: { type?: unknown; text?: unknown } };
          if (record.event?.type === "user_message" && typeof record.event.text === "string")
            builder.noteEvent({ type: "user_message", text: record.event.text });
        } catch {
          // a damaged line: the history load reports it
        }
      }
      continue;
    }
    const isLast = i === lines.length - 1;
    const where = { file, line: i + 1 };
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      warn(where, isLast ? "dropped torn last line" : "skipped line: not valid JSON");
      continue;
    }
    if (builder === null) {
      const meta = metaRecordSchema.safeParse(raw);
      if (meta.success) {
        builder = new Builder(meta.data);
        version = meta.data.v;
        if (version > SESSION_FORMAT_VERSION) {
          warn(where, `written by a newer Islet (format v${version}); unknown records are skipped`);
        }
        continue;
      }
      warn(where, "no valid meta record at the start; using placeholder metadata");
      builder = new Builder(placeholderMeta(fallback));
    }
    const decoded = decode(raw, version);
    if (!decoded.ok) {
      warn(where, `${isLast ? "dropped last line" : "skipped line"}: ${decoded.why}`);
      continue;
    }
    if (decoded.record.t === "meta") {
      warn(where, "skipped line: a second meta record");
      continue;
    }
    if (decoded.record.t === "event") {
      builder.noteEvent(decoded.record.event);
      if (history) builder.addEvent(decoded.record.event, where, decoded.record.ref);
      continue;
    }
    builder.apply(decoded.record);
  }
  if (builder === null) {
    warn({ file }, "no records (empty session file); using placeholder metadata");
    builder = new Builder(placeholderMeta(fallback));
  }
  return builder.finish(warnings, history);
}
