/**
 * A light scan of a session file for `list()`: message lines are recognised and counted by their
 * prefix (records.ts writes `t` and the message id first) instead of being parsed; only the rare
 * non-message records and the lines up to the first user message are parsed.
 */
import { placeholderMeta, decode, type Fallback } from "./reconstruct.ts";
import { MESSAGE_LINE_PREFIX, metaRecordSchema, SESSION_FORMAT_VERSION } from "./records.ts";
import { isTitleSource, titleFromText } from "./title.ts";

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: string;
  /** ISO time of the last write (the file's mtime). */
  updatedAt: string;
  /** Messages in the reconstructed history (after removals and compaction). */
  messageCount: number;
  workdir: string;
  agent: string;
  provider: string;
  model: string;
}

export type ScannedSummary = Omit<SessionSummary, "updatedAt">;

/** The id of a message line written by `encodeRecord`, or null when the line needs a full parse. */
function sniffMessageId(line: string): string | null {
  if (!line.startsWith(MESSAGE_LINE_PREFIX) || !line.endsWith("}")) return null;
  const end = line.indexOf('"', MESSAGE_LINE_PREFIX.length);
  if (end < 0) return null;
  const id = line.slice(MESSAGE_LINE_PREFIX.length, end);
  return id.includes("\\") || id === "" ? null : id;
}

export function scanSummary(text: string, fallback: Fallback): ScannedSummary {
  const lines = text.split("\n");
  let meta = placeholderMeta(fallback);
  let version = SESSION_FORMAT_VERSION;
  let ids = new Set<string>();
  let explicitTitle: string | null = null;
  let firstUserTitle = "";
  let agent: string | null = null;
  let provider: string | null = null;
  let model: string | null = null;
  let sawFirst = false;

  for (const line of lines) {
    if (line.trim() === "") continue;
    // Once no default title is needed, message lines only need counting.
    const needTitle = firstUserTitle === "" && meta.title === "";
    const sniffed = needTitle ? null : sniffMessageId(line);
    if (sniffed !== null) {
      ids.add(sniffed);
      continue;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue; // torn or corrupt: load() reports it; the summary just leaves it out
    }
    if (!sawFirst) {
      sawFirst = true;
      const parsed = metaRecordSchema.safeParse(raw);
      if (parsed.success) {
        meta = parsed.data;
        version = meta.v;
        continue;
      }
    }
    const decoded = decode(raw, version);
    if (!decoded.ok) continue;
    const r = decoded.record;
    switch (r.t) {
      case "message":
        ids.add(r.message.id);
        if (firstUserTitle === "" && isTitleSource(r.message))
          firstUserTitle = titleFromText(r.message.content);
        break;
      case "remove":
        for (const id of r.ids) ids.delete(id);
        break;
      case "reset":
        ids = new Set(r.messages.map((m) => m.id));
        for (const m of r.messages) {
          if (firstUserTitle === "" && isTitleSource(m)) firstUserTitle = titleFromText(m.content);
        }
        break;
      case "title":
        explicitTitle = r.title === "" ? null : r.title;
        break;
      case "agent":
        agent = r.agent;
        break;
      case "model":
        provider = r.provider;
        model = r.model;
        break;
      default:
        break;
    }
  }
  return {
    // The file name is the id load() and resolve() use, whatever the meta line says.
    id: fallback.id,
    title: explicitTitle ?? (meta.title || firstUserTitle),
    createdAt: meta.createdAt,
    messageCount: ids.size,
    workdir: meta.workdir,
    agent: agent ?? meta.agent,
    provider: provider ?? meta.provider,
    model: model ?? meta.model,
  };
}
