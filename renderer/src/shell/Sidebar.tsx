/** The slim left rail: the app's name, its views, and whether the engine is reachable. */
import type { ReactNode } from "react";
import type { AppInfo } from "../../../main/bridge/contract.ts";
import type { ConnectionState } from "../bridge/index.ts";
import { ChatIcon, PluginIcon } from "../ui/icons.tsx";
import { Logo } from "../ui/Logo.tsx";
import { EditorIcon } from "../editor/EditorIcon.tsx";
import { CpuIcon, SettingsIcon } from "../ui/more-icons.tsx";
import type { ViewId } from "./views.ts";

interface NavItem {
  id: ViewId;
  label: string;
  icon: ReactNode;
}

const NAV: NavItem[] = [
  { id: "chat", label: "Chat", icon: <ChatIcon /> },
  { id: "models", label: "Models", icon: <CpuIcon /> },
  { id: "plugins", label: "Plugins", icon: <PluginIcon /> },
  { id: "editor", label: "Editor", icon: <EditorIcon /> },
  { id: "settings", label: "Settings", icon: <SettingsIcon /> },
];

const CONNECTION_LABEL: Record<ConnectionState, string> = {
  connecting: "Connecting…",
  open: "Engine connected",
  closed: "Reconnecting…",
  refused: "Disconnected",
};

export function Sidebar({
  view,
  onNavigate,
  connection,
  info,
  badges,
}: {
  view: ViewId;
  onNavigate(view: ViewId): void;
  connection: ConnectionState;
  info: AppInfo | undefined;
  /** A small count beside a nav entry (e.g. plugins with problems). */
  badges?: Partial<Record<ViewId, { count: number; label: string; tone: "bad" | "muted" }>>;
}) {
  return (
    <aside className="sidebar">
      <div className="brand">
        <Logo />
        <span className="brand-name">Islet</span>
      </div>
      <nav aria-label="Main">
        <ul className="nav">
          {NAV.map((item) => {
            const badge = badges?.[item.id];
            return (
              <li key={item.id}>
                <button
                  type="button"
                  className="nav-item"
                  aria-current={view === item.id ? "page" : undefined}
                  onClick={() => onNavigate(item.id)}
                >
                  {item.icon}
                  <span className="nav-label">{item.label}</span>
                  {badge && badge.count > 0 ? (
                    <span className={`nav-badge nav-badge-${badge.tone}`} title={badge.label}>
                      {badge.count}
                      <span className="visually-hidden"> {badge.label}</span>
                    </span>
                  ) : null}
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
      <footer className="sidebar-foot">
        <p className={`conn conn-${connection}`}>
          <span className="dot" aria-hidden="true" />
          {CONNECTION_LABEL[connection]}
        </p>
        {info ? (
          <p className="sidebar-version">
            Islet {info.version} · {info.host === "desktop" ? "desktop" : "browser"}
          </p>
        ) : null}
      </footer>
    </aside>
  );
}
