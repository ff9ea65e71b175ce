/**
 * The sessions column: New chat, search (titles and message text), the saved conversations
 * grouped by when they were last used, and per session rename, export and delete. The list is one
 * Tab stop (roving tabindex): ↑/↓/Home/End move between sessions, → reaches a row's actions and ←
 * comes back, Enter opens, F2 renames, Delete asks to delete. Collapsed, it is a slim strip with
 * Show chats and New chat.
 */
import { useRef, useState } from "react";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent } from "../bridge/hooks.ts";
import { SearchIcon } from "../ui/icons.tsx";
import { PanelIcon, PlusIcon } from "../ui/more-icons.tsx";
import { SessionRow, type RowActions, type RowMode } from "./SessionRow.tsx";
import { useSessions } from "./useSessions.ts";
import { downloadText, groupOf, type Group } from "./when.ts";
import "../ui/buttons.css";
import "./sessions.css";

const GROUPS: Group[] = ["Today", "Yesterday", "Previous 7 days", "Older"];

export function SessionsPanel({
  activeId,
  onOpen,
  onNewChat,
  collapsed = false,
  onToggle,
}: {
  activeId: string | null;
  /** Opens a saved session. */
  onOpen(id: string | null): void;
  /** New chat (the app also puts the focus in the composer). */
  onNewChat(): void;
  collapsed?: boolean;
  onToggle?: () => void;
}) {
  const bridge = useBridge();
  const [query, setQuery] = useState("");
  const sessions = useSessions(query);
  const [editing, setEditing] = useState<{ id: string; mode: RowMode } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);
  /** The row that holds the list's one Tab stop (the last one focused). */
  const [current, setCurrent] = useState<string | null>(null);
  const search = useRef<HTMLInputElement>(null);

  // The open session was deleted (here or in another window): show a new chat.
  useBridgeEvent("sessions/changed", (e) => {
    if (e.cause === "deleted" && e.id === activeId) onOpen(null);
  });

  const attempt = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
      setFailure(null);
    } catch (err) {
      setFailure(`${what}: ${errorMessage(err)}`);
    }
  };

  const actions: RowActions = {
    open: (id) => onOpen(id),
    rename: (id, title) =>
      attempt("Rename failed", () => bridge.call("sessions/rename", { id, title })),
    export: (id, format) =>
      void attempt("Export failed", async () => {
        const file = await bridge.call("sessions/export", { id, format });
        downloadText(file.fileName, file.mimeType, file.text);
      }),
    remove: async (id) => {
      setEditing(null);
      await attempt("Delete failed", () => bridge.call("sessions/delete", { id }));
      list.current?.querySelector<HTMLElement>(".session-open")?.focus();
    },
  };

  const onListKey = (e: React.KeyboardEvent) => {
    const target = e.target as HTMLElement;
    // Anywhere in a row (its open button or its Actions button), but not in its inline editors.
    const row = target.closest<HTMLElement>("li[data-session-id]");
    if (!row || target.tagName === "INPUT" || target.closest("[role=menu]")) return;
    const open = row.querySelector<HTMLElement>(".session-open");
    const rows = [...(list.current?.querySelectorAll<HTMLElement>(".session-open") ?? [])];
    const at = open ? rows.indexOf(open) : -1;
    const id = row.dataset["sessionId"];
    if (e.key === "ArrowRight" && target === open) {
      e.preventDefault();
      row.querySelector<HTMLElement>(".row-menu-button")?.focus();
    } else if (e.key === "ArrowLeft" && target !== open) {
      e.preventDefault();
      open?.focus();
    } else if (at < 0) {
      return;
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      rows[Math.min(rows.length - 1, Math.max(0, at + (e.key === "ArrowDown" ? 1 : -1)))]?.focus();
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      (e.key === "Home" ? rows[0] : rows.at(-1))?.focus();
    } else if (e.key === "F2" && id) {
      e.preventDefault();
      setEditing({ id, mode: "rename" });
    } else if (e.key === "Delete" && id) {
      e.preventDefault();
      setEditing({ id, mode: "confirm" });
    }
  };

  const items = sessions.items;
  const ids = items?.map((s) => s.id) ?? [];
  const tabStop =
    current && ids.includes(current)
      ? current
      : activeId && ids.includes(activeId)
        ? activeId
        : (ids[0] ?? null);

  if (collapsed)
    return (
      <nav className="sessions sessions-collapsed" aria-label="Chats">
        <button
          type="button"
          className="icon-button"
          aria-label="Show chats"
          aria-expanded={false}
          title="Show chats"
          onClick={onToggle}
        >
          <PanelIcon />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label="New chat"
          title="New chat"
          onClick={onNewChat}
        >
          <PlusIcon />
        </button>
      </nav>
    );

  const grouped = GROUPS.map((g) => ({
    group: g,
    rows: (items ?? []).filter((s) => groupOf(s.updatedAt) === g),
  })).filter((g) => g.rows.length > 0);

  return (
    <nav className="sessions" aria-label="Chats">
      <div className="sessions-head">
        <div className="sessions-actions">
          <button
            type="button"
            className="button sessions-new"
            aria-pressed={activeId === null ? true : undefined}
            onClick={onNewChat}
          >
            <PlusIcon /> New chat
          </button>
          {onToggle ? (
            <button
              type="button"
              className="icon-button"
              aria-label="Hide chats"
              aria-expanded={true}
              title="Hide chats"
              onClick={onToggle}
            >
              <PanelIcon />
            </button>
          ) : null}
        </div>
        <label className="search sessions-search">
          <SearchIcon />
          <span className="visually-hidden">Search chats</span>
          <input
            ref={search}
            type="search"
            placeholder="Search chats"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "ArrowDown") {
                e.preventDefault();
                list.current?.querySelector<HTMLElement>(".session-open[tabindex='0']")?.focus();
              }
              if (e.key === "Escape") setQuery("");
            }}
          />
        </label>
      </div>
      {failure ? (
        <p className="sessions-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div
        ref={list}
        className="sessions-list"
        onKeyDown={onListKey}
        onFocus={(e) => {
          const id = (e.target as HTMLElement).closest<HTMLElement>("li[data-session-id]")?.dataset[
            "sessionId"
          ];
          if (id) setCurrent(id);
        }}
        aria-busy={items === undefined}
      >
        {items === undefined ? (
          sessions.error ? (
            <p className="sessions-empty" role="alert">
              Could not list chats: {sessions.error}
            </p>
          ) : (
            <p className="sessions-empty">Loading chats…</p>
          )
        ) : items.length === 0 ? (
          <p className="sessions-empty" role="status">
            {query.trim() ? `No chat mentions “${query.trim()}”.` : "No chats yet. Say hello!"}
          </p>
        ) : (
          grouped.map(({ group, rows }) => (
            <section key={group} className="sessions-group" aria-label={group}>
              <h2 className="sessions-group-title">{group}</h2>
              <ul>
                {rows.map((s) => (
                  <SessionRow
                    key={s.id}
                    session={s}
                    active={s.id === activeId}
                    tabbable={s.id === tabStop}
                    actions={actions}
                    mode={editing?.id === s.id ? editing.mode : "view"}
                    setMode={(mode) => setEditing(mode === "view" ? null : { id: s.id, mode })}
                  />
                ))}
              </ul>
            </section>
          ))
        )}
      </div>
    </nav>
  );
}
