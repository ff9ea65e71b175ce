/**
 * A session's conversation in Claude Code's transcript shape, for the hooks that read
 * `transcript_path` (the Ralph loop plugins read the last assistant text from it). One JSONL line
 * per message: `{"type":"user"|"assistant","message":{"role":…,"content":[blocks]},"uuid":…}`,
 * text, thinking, tool_use (Claude's tool names and input fields) and tool_result blocks. Built lazily, only when a hook is about to
 * run, from the session file: each call reads what was appended since the last one. It holds
 * what the session file holds of the messages and nothing more (no system prompt, no settings or
 * keys, no thinking signatures), and only its owner may read it.
 */
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import type { Message } from "../core/message.ts";
import { claudeToolName, toClaudeInput } from "../tools/claude-names.ts";
import { noFollow } from "./session-file.ts";

/** Where a session's Claude-shaped transcript lives (beside the session files, in `claude/`). */
export function claudeTranscriptPath(globalHome: string, sessionId: string): string {
  return transcriptIn(path.join(globalHome, "sessions"), sessionId);
}

/** The same, from the sessions folder (the session store's). */
export function transcriptIn(sessionsDir: string, sessionId: string): string {
  return path.join(sessionsDir, "claude", `${sessionId}.jsonl`);
}

/** The answer a Stop hook judges: not in the session file yet (hooks may still rewrite it). */
export interface PendingAnswer {
  content: string;
  thinking?: string;
}

interface Progress {
  /** Bytes of the session file already read. */
  read: number;
  /** Bytes of the transcript holding those messages (a pending answer comes after them). */
  written: number;
  ids: Set<string>;
  lastUuid: string | null;
}

type Block = Record<string, unknown>;

/** Keeps the transcripts of the sessions hooks run in; one per hook registry. */
export class ClaudeTranscripts {
  private readonly globalHome: string;
  private readonly progress = new Map<string, Progress>();

  constructor(globalHome: string) {
    this.globalHome = globalHome;
  }

  /**
   * Brings the session's transcript up to date (with `pending` as its last line when given) and
   * returns its path. Synchronous, so that hooks of one event starting together never interleave
   * their writes. A session file that cannot be read gives a transcript of what there is.
   */
  sync(sessionId: string, cwd: string, pending?: PendingAnswer): string {
    const file = claudeTranscriptPath(this.globalHome, sessionId);
    const sessionFile = path.join(this.globalHome, "sessions", `${sessionId}.jsonl`);
    let p = this.progress.get(sessionId) ?? fresh();
    const { text, size } = readFrom(sessionFile, p.read);
    let added: Message[] = [];
    let whole = wholeLines(text);
    let rebuild = p.read === 0 || size < p.read;
    if (!rebuild) {
      const scanned = scan(whole, p.ids);
      added = scanned.added;
      rebuild = scanned.rebuild;
    }
    if (rebuild) {
      // First sight, ejected messages, compaction, a message replaced: fold the whole file.
      if (p.read > 0) whole = wholeLines(readFrom(sessionFile, 0).text);
      p = fresh();
      added = foldMessages(whole);
    }
    p.read += Buffer.byteLength(whole);
    let lines = "";
    for (const m of added) {
      const entry = toEntry(m, sessionId, cwd, p.lastUuid);
      if (!entry) continue;
      p.ids.add(m.id);
      p.lastUuid = m.id;
      lines += JSON.stringify(entry) + "\n";
    }
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const fd = openSync(file, noFollow(constants.O_RDWR | constants.O_CREAT), 0o600);
    try {
      if (!fstatSync(fd).isFile()) throw new Error(`${file} is not a file`);
      // Drops a pending answer written last time: the session file now says what became of it.
      ftruncateSync(fd, p.written);
      if (lines !== "") p.written += writeAll(fd, lines, p.written);
      if (pending) {
        const answer = toEntry(
          {
            id: `${p.lastUuid ?? sessionId}-answer`,
            role: "assistant",
            content: pending.content,
            thinking: pending.thinking || undefined,
            kind: "normal",
            createdAt: new Date().toISOString(),
          },
          sessionId,
          cwd,
          p.lastUuid,
        );
        if (answer) writeAll(fd, JSON.stringify(answer) + "\n", p.written);
      }
    } finally {
      closeSync(fd);
    }
    this.progress.set(sessionId, p);
    return file;
  }
}

/** New messages since the last read, and whether the file did something an append cannot show. */
function scan(text: string, known: ReadonlySet<string>): { added: Message[]; rebuild: boolean } {
  const added: Message[] = [];
  for (const line of text.split("\n")) {
    // Display events are most of a session file and never matter here.
    if (line === "" || line.startsWith('{"t":"event"')) continue;
    const record = parse(line);
    if (!record) continue;
    if (record.t === "remove" || record.t === "reset") return { added, rebuild: true };
    if (record.t === "message" && isMessage(record.message)) {
      if (known.has(record.message.id)) return { added, rebuild: true };
      added.push(record.message);
    }
  }
  return { added, rebuild: false };
}

function wholeLines(text: string): string {
  return text.slice(0, text.lastIndexOf("\n") + 1);
}

function fresh(): Progress {
  return { read: 0, written: 0, ids: new Set(), lastUuid: null };
}

/** The session file's bytes from `start` (its size too); empty when it cannot be read. */
function readFrom(file: string, start: number): { text: string; size: number } {
  let fd: number;
  try {
    fd = openSync(file, noFollow(constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)));
  } catch {
    return { text: "", size: 0 };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size <= start) return { text: "", size: info.size };
    const buf = Buffer.allocUnsafe(info.size - start);
    let done = 0;
    while (done < buf.length) {
      const n = readSync(fd, buf, done, buf.length - done, start + done);
      if (n === 0) break;
      done += n;
    }
    return { text: buf.subarray(0, done).toString("utf8"), size: info.size };
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, text: string, at: number): number {
  const buf = Buffer.from(text);
  let done = 0;
  while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done, at + done);
  return buf.length;
}

function parse(line: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : null;
  } catch {
    return null; // a torn last line: the session store repairs it
  }
}

function isMessage(v: unknown): v is Message {
  if (typeof v !== "object" || v === null) return false;
  const m = v as Record<string, unknown>;
  return typeof m.id === "string" && typeof m.role === "string" && typeof m.content === "string";
}

/** The session's messages as a load sees them: replaced in place, removed, reset. */
function foldMessages(text: string): Message[] {
  let messages: Message[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith('{"t":"event"')) continue;
    const r = parse(line);
    if (!r) continue;
    if (r.t === "message" && isMessage(r.message)) {
      const m = r.message;
      const at = messages.findIndex((x) => x.id === m.id);
      if (at >= 0) messages[at] = m;
      else messages.push(m);
    } else if (r.t === "remove" && Array.isArray(r.ids)) {
      const gone = new Set(r.ids);
      messages = messages.filter((m) => !gone.has(m.id));
    } else if (r.t === "reset" && Array.isArray(r.messages)) {
      messages = r.messages.filter(isMessage);
    }
  }
  return messages;
}

/** One message as Claude Code writes it; system messages stay out. */
function toEntry(
  m: Message,
  sessionId: string,
  cwd: string,
  parent: string | null,
): Record<string, unknown> | null {
  let type: "user" | "assistant";
  const content: Block[] = [];
  if (m.role === "assistant") {
    type = "assistant";
    if (m.thinking) content.push({ type: "thinking", thinking: m.thinking });
    if (m.content !== "") content.push({ type: "text", text: m.content });
    for (const c of m.toolCalls ?? [])
      // Claude's names and fields (`Edit` with `file_path`), as the plugins reading it expect.
      content.push({
        type: "tool_use",
        id: c.id,
        name: claudeToolName(c.name),
        input: toClaudeInput(c.name, c.arguments),
      });
  } else if (m.role === "tool") {
    type = "user";
    content.push({
      type: "tool_result",
      tool_use_id: m.toolCallId ?? "",
      content: m.content,
      is_error: m.isError === true,
    });
  } else if (m.role === "user") {
    type = "user";
    content.push({ type: "text", text: m.content });
  } else return null;
  return {
    parentUuid: parent,
    isSidechain: false,
    type,
    message: { role: type, content },
    uuid: m.id,
    timestamp: m.createdAt,
    sessionId,
    cwd,
    ...(m.kind === "summary" ? { isCompactSummary: true } : {}),
  };
}

/**
 * One transcript writer per global home, shared by every shell-hook registry (each plugin with
 * hooks has one): the transcript is one file per session, and writers of their own each rebuilt
 * it whole.
 */
const writers = new Map<string, ClaudeTranscripts>();

export function transcriptsFor(globalHome: string): ClaudeTranscripts {
  let writer = writers.get(globalHome);
  if (!writer) {
    writer = new ClaudeTranscripts(globalHome);
    writers.set(globalHome, writer);
  }
  return writer;
}
