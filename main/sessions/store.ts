/**
 * SessionStore: saved conversations in `<globalHome>/sessions/`, one append-only JSONL file per
 * session (`<id>.jsonl`, records in records.ts), plus `index.json`, a rebuildable list cache.
 *
 * Durability policy:
 * - `create` fsyncs the new file and the folder, so a session that was announced exists.
 * - `append` is synchronous: one write of whole lines on an O_APPEND fd. When it returns, the
 *   record survives a process crash (it is in the OS page cache); nothing is fsynced per record,
 *   so streaming costs no disk flushes (deltas are not records at all — the engine appends the
 *   finished message).
 * - `flush(id)` fsyncs; the engine calls it at the end of every turn (and `rename` calls it), so a
 *   power loss or OS crash loses at most the turn in progress.
 * One process writes a session at a time (the app, or `islet run --session`); two concurrent
 * writers would not corrupt lines (O_APPEND) but could interleave their histories.
 */
import { mkdir, open, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Message } from "../core/message.ts";
import { AppendFile } from "./append-file.ts";
import { transcriptIn } from "./claude-transcript.ts";
import { isSafeSessionId, newSessionId } from "./ids.ts";
import { isErrno, SessionError } from "./errors.ts";
import { listSummaries, SESSION_EXT, sessionIds } from "./listing.ts";
import { readSessionFile, unusableSessionFile } from "./session-file.ts";
import { decode, reconstruct, type ReconstructOptions, type SessionState } from "./reconstruct.ts";
import {
  encodeRecord,
  SESSION_FORMAT_VERSION,
  type BodyRecord,
  type MetaRecord,
} from "./records.ts";
import type { SessionSummary } from "./summary.ts";
import type { Problem } from "../host/problem.ts";

export type { SessionSummary } from "./summary.ts";
export type { SessionState } from "./reconstruct.ts";

export { SessionError, type SessionErrorCode } from "./errors.ts";

/**
 * Records checked as they are rather than as they will be read back: their checks (the message
 * and stats checks, an event's envelope) look only at strings, booleans, finite numbers, arrays
 * and plain objects, which JSON keeps as they are, so what passes here reads back the same. Every
 * other kind is checked after a JSON round trip. Parsing each line back was ~40% of a turn's
 * session writes.
 */
const CHECKED_AS_THEY_ARE: ReadonlySet<BodyRecord["t"]> = new Set(["message", "event", "stats"]);

export interface NewSession {
  workdir: string;
  agent: string;
  provider: string;
  model: string;
  /** Usually left empty: the first user message names the session. */
  title?: string;
  appVersion?: string;
  parentId?: string;
  /** For imports and tests; normally generated (see ids.ts). */
  id?: string;
  createdAt?: Date;
}

export interface LoadedSession extends SessionState {
  /** The id the file is stored under. */
  id: string;
  file: string;
  /** ISO time of the last write (file mtime). */
  updatedAt: string;
}

export interface SessionStoreOptions {
  /** Stamped on new sessions' meta (which Islet wrote them). */
  appVersion?: string;
}

export class SessionStore {
  readonly dir: string;
  private readonly appVersion: string;
  private readonly files = new Map<string, AppendFile>();
  /**
   * Sessions just created whose file and folder entry are still being synced: `create` returns
   * once the file exists with its meta, so a new conversation's first turn does not wait for two
   * fsyncs (tens of ms on a busy disk); `flush` and `close` wait for them, as for appends.
   */
  private readonly syncing = new Map<string, Promise<void>>();
  /**
   * Sessions this store created and has not appended to yet, with the bytes of the meta line it
   * wrote: a file still that size needs no tail check (another writer may have appended since).
   */
  private readonly fresh = new Map<string, number>();

  constructor(dir: string, options: SessionStoreOptions = {}) {
    this.dir = dir;
    this.appVersion = options.appVersion ?? "";
  }

  /** The store of a global home (`~/.islet` or ISLET_HOME): sessions live only there. */
  static forHome(globalHome: string, options: SessionStoreOptions = {}): SessionStore {
    return new SessionStore(join(globalHome, "sessions"), options);
  }

  fileOf(id: string): string {
    if (!isSafeSessionId(id))
      throw new SessionError("invalid_id", `invalid session id: ${JSON.stringify(id)}`);
    return join(this.dir, id + SESSION_EXT);
  }

  async create(init: NewSession): Promise<string> {
    const createdAt = init.createdAt ?? new Date();
    const id = init.id ?? newSessionId(createdAt);
    const file = this.fileOf(id);
    const meta: MetaRecord = {
      t: "meta",
      v: SESSION_FORMAT_VERSION,
      id,
      title: init.title ?? "",
      createdAt: createdAt.toISOString(),
      workdir: init.workdir,
      agent: init.agent,
      provider: init.provider,
      model: init.model,
      appVersion: init.appVersion ?? this.appVersion,
      ...(init.parentId !== undefined ? { parentId: init.parentId } : {}),
    };
    await mkdir(this.dir, { recursive: true });
    let handle;
    try {
      handle = await open(file, "wx");
    } catch (err) {
      if (isErrno(err, "EEXIST"))
        throw new SessionError("exists", `session already exists: ${file}`);
      throw err;
    }
    const metaLine = Buffer.from(encodeRecord(meta), "utf8");
    try {
      await handle.writeFile(metaLine);
    } catch (err) {
      await handle.close();
      throw err;
    }
    const made = handle;
    const durable = (async () => {
      try {
        await made.sync();
      } finally {
        await made.close();
      }
      await this.syncDir();
    })();
    // A failure is told by the session's next flush; until then nothing waits on it.
    durable.catch(() => {});
    this.syncing.set(id, durable);
    this.fresh.set(id, metaLine.length);
    return id;
  }

  /** Waits for a new session's file and folder entry to reach the disk (see `syncing`). */
  private async synced(id: string): Promise<void> {
    const durable = this.syncing.get(id);
    if (!durable) return;
    try {
      await durable;
    } finally {
      if (this.syncing.get(id) === durable) this.syncing.delete(id);
    }
  }

  /** Makes the new directory entry durable (POSIX; Windows cannot open folders, nor needs to). */
  private async syncDir(): Promise<void> {
    try {
      const dirHandle = await open(this.dir, "r");
      try {
        await dirHandle.sync();
      } finally {
        await dirHandle.close();
      }
    } catch {
      // best effort
    }
  }

  private fileFor(id: string): AppendFile {
    let file = this.files.get(id);
    if (!file) {
      const path = this.fileOf(id);
      try {
        const written = this.fresh.get(id);
        this.fresh.delete(id);
        file = new AppendFile(path, written === undefined ? {} : { written });
      } catch (err) {
        if (isErrno(err, "ENOENT"))
          throw new SessionError("not_found", `no session ${id} (${path})`);
        throw unusableSessionFile(path, err);
      }
      this.files.set(id, file);
    }
    return file;
  }

  /** Appends records (validated first: a bad record throws and nothing is written). */
  append(id: string, records: BodyRecord | readonly BodyRecord[]): void {
    const list: readonly BodyRecord[] = Array.isArray(records) ? records : [records as BodyRecord];
    let text = "";
    for (const record of list) {
      const line = encodeRecord(record);
      const checked = decode(
        CHECKED_AS_THEY_ARE.has(record.t) ? record : JSON.parse(line),
        SESSION_FORMAT_VERSION,
      );
      if (!checked.ok || checked.record.t === "meta") {
        const why = checked.ok ? "meta is written by create()" : checked.why;
        throw new SessionError("invalid_record", `refusing to append to session ${id}: ${why}`);
      }
      text += line;
    }
    if (text !== "") this.fileFor(id).write(text);
  }

  /** Convenience for the common case. */
  appendMessage(id: string, message: Message): void {
    this.append(id, { t: "message", message });
  }

  /** fsync one session's file, or every file this store has open. */
  async flush(id?: string): Promise<void> {
    if (id !== undefined) {
      await this.synced(id);
      await this.files.get(id)?.sync();
      return;
    }
    await Promise.all([...this.syncing.keys()].map((key) => this.synced(key)));
    await Promise.all([...this.files.values()].map((f) => f.sync()));
  }

  /**
   * Refuses (SessionError "unreadable") a link, a folder or a file it may not read. With
   * `{ history: true }` the display events come too (`history`; see history.ts).
   */
  async load(id: string, options: ReconstructOptions = {}): Promise<LoadedSession> {
    const file = this.fileOf(id);
    let text: string;
    let mtime: Date;
    try {
      ({ text, mtime } = await readSessionFile(file));
    } catch (err) {
      if (err instanceof SessionError && err.code === "not_found")
        throw new SessionError("not_found", `no session ${id} (${file})`);
      throw err;
    }
    const state = reconstruct(text, file, { id, createdAt: mtime.toISOString() }, options);
    return { ...state, id, file, updatedAt: mtime.toISOString() };
  }

  /**
   * Summaries, most recently updated first; unchanged files come from the index cache. Entries
   * that cannot be read are skipped, each with one line to `warn`.
   */
  list(options: { warn?(problem: Problem): void } = {}): Promise<SessionSummary[]> {
    return listSummaries(this.dir, options.warn);
  }

  async rename(id: string, title: string): Promise<void> {
    this.append(id, { t: "title", title: title.replace(/\s+/g, " ").trim() });
    await this.flush(id);
  }

  async delete(id: string): Promise<void> {
    const file = this.fileOf(id);
    await this.close(id);
    try {
      await unlink(file);
    } catch (err) {
      if (isErrno(err, "ENOENT")) throw new SessionError("not_found", `no session ${id} (${file})`);
      throw err;
    }
    // Its Claude-shaped copy for hooks goes with it (there is none when no hook ran).
    await unlink(transcriptIn(this.dir, id)).catch((err: unknown) => {
      if (!isErrno(err, "ENOENT")) throw err;
    });
  }

  /** A full id, or a unique prefix of one (like a git short id). */
  async resolve(prefix: string): Promise<string> {
    const wanted = prefix.trim();
    if (wanted === "" || !isSafeSessionId(wanted)) {
      throw new SessionError("invalid_id", `invalid session id: ${JSON.stringify(prefix)}`);
    }
    const ids = await sessionIds(this.dir);
    if (ids.includes(wanted)) return wanted;
    const matches = ids.filter((id) => id.startsWith(wanted)).sort();
    if (matches.length === 1) return matches[0];
    if (matches.length === 0)
      throw new SessionError("not_found", `no session matches "${wanted}" in ${this.dir}`);
    const shown = matches.slice(0, 5).join(", ") + (matches.length > 5 ? ", …" : "");
    throw new SessionError(
      "ambiguous",
      `"${wanted}" matches ${matches.length} sessions: ${shown}; type more of the id`,
    );
  }

  /** Waits for pending fsyncs and closes one session's file, or all of them. */
  async close(id?: string): Promise<void> {
    const ids =
      id === undefined ? [...new Set([...this.files.keys(), ...this.syncing.keys()])] : [id];
    if (id === undefined) this.fresh.clear();
    for (const key of ids) {
      const file = this.files.get(key);
      this.files.delete(key);
      this.fresh.delete(key);
      // A close never fails for the new file's sync: its flush reports that.
      await this.synced(key).catch(() => {});
      await file?.close();
    }
  }
}
