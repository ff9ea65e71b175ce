/**
 * The left rail: the app's name, its views, and whether the engine is reachable. Collapsed, it
 * shows icons only; each keeps its label as its accessible name and as a tooltip.
 */
import type { ReactNode } from "react";
import type { AppInfo } from "../../../main/bridge/contract.ts";
import type { ConnectionState } from "../bridge/index.ts";
import { ChatIcon, PluginIcon } from "../ui/icons.tsx";
import { Logo } from "../ui/Logo.tsx";
import { EditorIcon } from "../editor/EditorIcon.tsx";
import { CpuIcon, PanelIcon, SettingsIcon } from "../ui/more-icons.tsx";
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
  collapsed,
  onToggle,
}: {
  view: ViewId;
  onNavigate(view: ViewId): void;
  connection: ConnectionState;
  info: AppInfo | undefined;
  /** A small count beside a nav entry (e.g. plugins with problems). */
  badges?: Partial<Record<ViewId, { count: number; label: string; tone: "bad" | "muted" }>>;
  collapsed: boolean;
  onToggle(): void;
}) {
  return (
    <aside className={`sidebar${collapsed ? " sidebar-collapsed" : ""}`} id="main-sidebar">
      <div className="brand">
        <Logo />
        <span className={collapsed ? "visually-hidden" : "brand-name"}>Islet</span>
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
                  title={collapsed ? item.label : undefined}
                  onClick={() => onNavigate(item.id)}
                >
                  {item.icon}
                  <span className={collapsed ? "visually-hidden" : "nav-label"}>{item.label}</span>
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
        <button
          type="button"
          className="nav-item sidebar-toggle"
          aria-expanded={!collapsed}
          aria-controls="main-sidebar"
          title={collapsed ? "Expand the sidebar" : undefined}
          onClick={onToggle}
        >
          <PanelIcon />
          <span className={collapsed ? "visually-hidden" : "nav-label"}>
            {collapsed ? "Expand sidebar" : "Collapse sidebar"}
          </span>
        </button>
        <p
          className={`conn conn-${connection}`}
          title={collapsed ? CONNECTION_LABEL[connection] : undefined}
        >
          <span className="dot" aria-hidden="true" />
          <span className={collapsed ? "visually-hidden" : undefined}>
            {CONNECTION_LABEL[connection]}
          </span>
        </p>
        {info && !collapsed ? (
          <p className="sidebar-version">
            Islet {info.version} · {info.host === "desktop" ? "desktop" : "browser"}
          </p>
        ) : null}
      </footer>
    </aside>
  );
}
