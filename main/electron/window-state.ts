// Where the main window opens: the size, position and maximized state it had when last moved,
// clamped so it is visible on the displays connected now. No 'electron' import: the window and
// the displays come in through small interfaces, so this runs (and is tested) under plain Node.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** The normal (not maximized) bounds. */
  bounds: Rect;
  maximized: boolean;
}

/** What the window is created with: no x/y means "centre it". */
export interface WindowPlacement {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface SizeLimits {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
}

/** How much of the title bar area must be on a display for the saved position to be kept. */
const VISIBLE_PX = 64;

const isFiniteNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** A saved state, or null for a missing, damaged or foreign file (then the defaults apply). */
export function parseWindowState(raw: unknown): WindowState | null {
  if (typeof raw !== "object" || raw === null) return null;
  const { bounds, maximized } = raw as { bounds?: unknown; maximized?: unknown };
  if (typeof bounds !== "object" || bounds === null) return null;
  const { x, y, width, height } = bounds as Record<string, unknown>;
  if (![x, y, width, height].every(isFiniteNumber)) return null;
  return {
    bounds: { x: x as number, y: y as number, width: width as number, height: height as number },
    maximized: maximized === true,
  };
}

export function readWindowState(file: string): WindowState | null {
  try {
    return parseWindowState(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    return null;
  }
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * The saved state fitted to today's displays (work areas, primary first): the size at most the
 * display's and at least the minimum; the position kept only when the window's top strip is
 * visible on some display (a monitor unplugged since: centred on the primary one instead).
 */
export function placeWindow(
  saved: WindowState | null,
  workAreas: readonly Rect[],
  limits: SizeLimits,
): WindowPlacement {
  if (saved === null) return { width: limits.width, height: limits.height, maximized: false };
  const { bounds } = saved;
  const titleStrip: Rect = { x: bounds.x, y: bounds.y, width: bounds.width, height: VISIBLE_PX };
  const home = workAreas.find((area) => {
    const o = overlap(titleStrip, area);
    return o.width >= VISIBLE_PX && o.height >= Math.min(VISIBLE_PX, bounds.height) / 2;
  });
  const area = home ?? workAreas[0];
  const fit = (size: number, min: number, max: number | undefined) =>
    Math.round(Math.max(min, max === undefined ? size : Math.min(size, max)));
  const width = fit(bounds.width, limits.minWidth, area?.width);
  const height = fit(bounds.height, limits.minHeight, area?.height);
  if (!home) return { width, height, maximized: saved.maximized };
  // Inside the display it was found on, so a shrunk size does not leave it hanging off an edge.
  const x = Math.round(Math.min(Math.max(bounds.x, home.x), home.x + home.width - width));
  const y = Math.round(Math.min(Math.max(bounds.y, home.y), home.y + home.height - height));
  return { x, y, width, height, maximized: saved.maximized };
}

/**
 * Synchronous on purpose: the last save happens as the window closes, and the app may exit right
 * after. Temp file then rename, so a crash leaves the old state or the new one, never half.
 */
export function writeWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(state) + "\n");
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The parts of a BrowserWindow the keeper reads. */
export interface TrackedWindow {
  on(event: "move" | "resize" | "maximize" | "unmaximize" | "close", listener: () => void): unknown;
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isDestroyed(): boolean;
}

/**
 * Saves the window's state after it moves or resizes, once it has been still for `delayMs`
 * (dragging emits dozens of events a second), and at once when it closes.
 */
export function keepWindowState(
  win: TrackedWindow,
  file: string,
  opts: { delayMs?: number; onError?(error: Error): void } = {},
): { saveNow(): void } {
  const delayMs = opts.delayMs ?? 500;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = "";
  const saveNow = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (win.isDestroyed()) return;
    const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    const text = JSON.stringify(state);
    if (text === last) return;
    try {
      writeWindowState(file, state);
      last = text;
    } catch (error) {
      opts.onError?.(error as Error);
    }
  };
  const later = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(saveNow, delayMs);
    timer.unref?.();
  };
  for (const event of ["move", "resize", "maximize", "unmaximize"] as const) win.on(event, later);
  win.on("close", saveNow);
  return { saveNow };
}
