/**
 * Which side columns (the main nav, the chats list) are collapsed. Below NARROW px both start
 * collapsed so the conversation keeps its room; a person's choice is remembered in localStorage
 * (like the theme) separately for wide and narrow windows, so collapsing on a laptop does not
 * shrink the desktop layout.
 */
import { useCallback, useEffect, useState } from "react";

export type Column = "nav" | "sessions";
type Mode = "wide" | "narrow";
type Prefs = Record<Mode, Partial<Record<Column, boolean>>>;

export const NARROW = 1100;
const KEY = "islet-layout";
const QUERY = `(max-width: ${NARROW - 1}px)`;

function load(): Prefs {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? "null");
    if (v && typeof v === "object") {
      const p = v as Partial<Prefs>;
      return { wide: clean(p.wide), narrow: clean(p.narrow) };
    }
  } catch {
    // Storage off or a broken value: the defaults.
  }
  return { wide: {}, narrow: {} };
}

function clean(v: unknown): Partial<Record<Column, boolean>> {
  const out: Partial<Record<Column, boolean>> = {};
  if (v && typeof v === "object")
    for (const c of ["nav", "sessions"] as const) {
      const b = (v as Record<string, unknown>)[c];
      if (typeof b === "boolean") out[c] = b;
    }
  return out;
}

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => matchMedia(QUERY).matches);
  useEffect(() => {
    const mq = matchMedia(QUERY);
    const on = () => setNarrow(mq.matches);
    mq.addEventListener("change", on);
    on();
    return () => mq.removeEventListener("change", on);
  }, []);
  return narrow;
}

export interface Layout {
  collapsed: Record<Column, boolean>;
  toggle(column: Column): void;
}

export function useLayout(): Layout {
  const mode: Mode = useNarrow() ? "narrow" : "wide";
  const [prefs, setPrefs] = useState(load);
  const chosen = prefs[mode];
  const collapsed = {
    nav: chosen.nav ?? mode === "narrow",
    sessions: chosen.sessions ?? mode === "narrow",
  };
  const toggle = useCallback(
    (column: Column) =>
      setPrefs((p) => {
        const now = p[mode][column] ?? mode === "narrow";
        const next = { ...p, [mode]: { ...p[mode], [column]: !now } };
        try {
          localStorage.setItem(KEY, JSON.stringify(next));
        } catch {
          // Storage can be off (private windows): the choice lasts until reload.
        }
        return next;
      }),
    [mode],
  );
  return { collapsed, toggle };
}
