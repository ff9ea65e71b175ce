/**
 * The two tabs of the Plugins view: what is installed (the plugin browser) and the Catalog.
 * A WAI-ARIA tab list: ←/→, Home and End move between tabs, the panel is the view's body.
 */
import { useEffect, useRef, type KeyboardEvent } from "react";

export type PluginsTab = "installed" | "catalog";

const TABS: { id: PluginsTab; label: string }[] = [
  { id: "installed", label: "Installed" },
  { id: "catalog", label: "Catalog" },
];

const tabId = (tab: PluginsTab) => `plugins-tab-${tab}`;
export const PANEL_ID = "plugins-tab-panel";

/**
 * Each tab's view draws its own tab list, so choosing a tab mounts a new one: it takes the
 * focus over from the old one.
 */
let refocus = false;

/** What the view's body carries to be the selected tab's panel. */
export function tabPanelProps(tab: PluginsTab) {
  return { role: "tabpanel", id: PANEL_ID, "aria-labelledby": tabId(tab) } as const;
}

export function PluginsTabs({
  tab,
  onChange,
}: {
  tab: PluginsTab;
  onChange(tab: PluginsTab): void;
}) {
  const refs = useRef<Partial<Record<PluginsTab, HTMLButtonElement | null>>>({});
  useEffect(() => {
    if (!refocus) return;
    refocus = false;
    refs.current[tab]?.focus();
  }, [tab]);
  const choose = (next: PluginsTab) => {
    if (next === tab) return;
    refocus = true;
    onChange(next);
  };
  const move = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const next =
      e.key === "ArrowRight"
        ? TABS[(i + 1) % TABS.length]
        : e.key === "ArrowLeft"
          ? TABS[(i - 1 + TABS.length) % TABS.length]
          : e.key === "Home"
            ? TABS[0]
            : e.key === "End"
              ? TABS[TABS.length - 1]
              : null;
    if (!next) return;
    e.preventDefault();
    choose(next.id);
  };
  return (
    <div className="view-tabs" role="tablist" aria-label="Plugins" onKeyDown={move}>
      {TABS.map((t) => (
        <button
          key={t.id}
          ref={(el) => {
            refs.current[t.id] = el;
          }}
          type="button"
          role="tab"
          id={tabId(t.id)}
          className="view-tab"
          aria-selected={tab === t.id}
          aria-controls={PANEL_ID}
          tabIndex={tab === t.id ? 0 : -1}
          onClick={() => choose(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
