/**
 * `sessions/*`: the saved conversations for the sessions column. Every change is announced to
 * everyone (`sessions/changed`) so other windows refresh their lists; so are sessions created or
 * written by a chat (see withSessionEvents).
 */
import { formatProblem, type Problem } from "../../host/problem.ts";
import { exportJson, exportMarkdown } from "../../sessions/export.ts";
import type { LoadedSession, SessionStore } from "../../sessions/store.ts";
import type { Chats } from "../chats.ts";
import type { BridgeService, CallHandlers, StreamHandlers } from "../service.ts";
import { EVERYONE } from "../service.ts";
import type { SessionItem } from "../schemas/sessions.ts";

type Names = "sessions/list" | "sessions/rename" | "sessions/delete" | "sessions/export";
type Emit = Pick<BridgeService, "emit">;

const SNIPPET = 40;

/** Where `query` occurs in the session's messages, with a little text around it. */
function messageMatch(session: LoadedSession, query: string): string | null {
  for (const m of session.messages) {
    if (m.role === "system") continue;
    const at = m.content.toLowerCase().indexOf(query);
    if (at < 0) continue;
    const start = Math.max(0, at - SNIPPET);
    const end = Math.min(m.content.length, at + query.length + SNIPPET);
    const text = m.content.slice(start, end).replace(/\s+/g, " ").trim();
    return `${start > 0 ? "…" : ""}${text}${end < m.content.length ? "…" : ""}`;
  }
  return null;
}

/** A file name for the export: the title made safe, and the id so two exports never collide. */
export function exportFileName(title: string, id: string, ext: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .toLowerCase()
    .slice(0, 50)
    .replace(/-+$/, "");
  return `${slug || "session"}-${id}.${ext}`;
}

/** What the sessions calls ask of the engine: these parts of its session store. */
export type SessionsPort = Pick<
  SessionStore,
  "list" | "load" | "resolve" | "rename" | "delete" | "flush"
>;

export function sessionHandlers(
  store: SessionsPort,
  chats: Chats,
  service: Emit,
): Pick<CallHandlers, Names> {
  // A damaged session file is reported once, not on every refresh of every window's list.
  const warned = new Set<string>();
  const warn = (problem: Problem) => {
    const line = formatProblem(problem);
    if (warned.has(line)) return;
    warned.add(line);
    service.emit(EVERYONE, "engine/warning", problem);
  };
  return {
    "sessions/list": async ({ query }, { signal }) => {
      const all = await store.list({ warn });
      all.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
      const q = query?.trim().toLowerCase() ?? "";
      const out: SessionItem[] = [];
      for (const s of all) {
        if (signal.aborted) break;
        let match: string | null = null;
        if (q !== "" && !s.title.toLowerCase().includes(q)) {
          const loaded = await store.load(s.id).catch(() => null);
          match = loaded ? messageMatch(loaded, q) : null;
          if (match === null) continue;
        }
        out.push({
          id: s.id,
          title: s.title,
          createdAt: s.createdAt,
          updatedAt: s.updatedAt,
          messageCount: s.messageCount,
          agent: s.agent,
          provider: s.provider,
          model: s.model,
          open: chats.isOpen(s.id),
          match,
        });
      }
      return { sessions: out };
    },
    "sessions/rename": async ({ id, title }) => {
      const full = await store.resolve(id);
      const clean = title.replace(/\s+/g, " ").trim();
      await store.rename(full, clean);
      chats.retitle(full, clean);
      service.emit(EVERYONE, "sessions/changed", { cause: "renamed", id: full });
      return { id: full, title: clean };
    },
    "sessions/delete": async ({ id }) => {
      const full = await store.resolve(id);
      // Open somewhere: its turn stops and it closes (what was said is saved) before the file goes.
      const closed = await chats.closeEverywhere(full);
      await store.delete(full);
      service.emit(EVERYONE, "sessions/changed", { cause: "deleted", id: full });
      return { id: full, closed };
    },
    "sessions/export": async ({ id, format }) => {
      const full = await store.resolve(id);
      await store.flush(full).catch(() => undefined);
      const loaded = await store.load(full);
      const json = format === "json";
      return {
        fileName: exportFileName(loaded.title, full, json ? "json" : "md"),
        mimeType: json ? "application/json" : "text/markdown",
        text: json ? exportJson(loaded) : exportMarkdown(loaded),
      };
    },
  };
}

/**
 * The chat calls, announcing to everyone when a session is created (`chat/open` of a new one) or
 * written (`chat/send` ended), so every window's sessions list stays current.
 */
export function withSessionEvents<
  H extends Partial<Pick<CallHandlers, "chat/open">> & Partial<Pick<StreamHandlers, "chat/send">>,
>(handlers: H, service: Emit): H {
  const out = { ...handlers };
  const open = handlers["chat/open"];
  if (open) {
    const wrapped: CallHandlers["chat/open"] = async (request, ctx) => {
      const opened = await open(request, ctx);
      if (!opened.resumed)
        service.emit(EVERYONE, "sessions/changed", { cause: "created", id: opened.conversationId });
      return opened;
    };
    out["chat/open"] = wrapped;
  }
  const send = handlers["chat/send"];
  if (send) {
    out["chat/send"] = async (request, ctx) => {
      try {
        return await send(request, ctx);
      } finally {
        service.emit(EVERYONE, "sessions/changed", {
          cause: "updated",
          id: request.conversationId,
        });
      }
    };
  }
  return out;
}
