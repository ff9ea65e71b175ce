/**
 * The theme chosen in Settings, applied live as `data-theme` on <html> (theme.css overrides the
 * OS preference with it). The last choice is kept in localStorage so a reload does not flash the
 * other theme before the engine answers.
 */
import { useEffect } from "react";
import { useBridge } from "../bridge/context.tsx";
import { useBridgeEvent, useReconnected } from "../bridge/hooks.ts";
import "./theme.css";

export type Theme = "system" | "light" | "dark";
const KEY = "islet-theme";

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === "system") delete root.dataset["theme"];
  else root.dataset["theme"] = theme;
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Storage can be off (private windows); the engine's answer still applies it.
  }
}

function cached(): Theme | null {
  try {
    const v = localStorage.getItem(KEY);
    return v === "light" || v === "dark" || v === "system" ? v : null;
  } catch {
    return null;
  }
}

// Before the first render: the last theme, until the engine says otherwise.
const early = cached();
if (early) applyTheme(early);

/** Keeps <html data-theme> in step with the settings, in every window. */
export function useAppliedTheme(): void {
  const bridge = useBridge();
  const load = () => {
    bridge.call("settings/get").then(
      (s) => applyTheme(s.theme),
      () => undefined,
    );
  };
  // Once per bridge (load only closes over it).
  useEffect(load, [bridge]);
  useReconnected(load);
  useBridgeEvent("settings/changed", (e) => {
    if (e.section === "appearance") load();
  });
}
