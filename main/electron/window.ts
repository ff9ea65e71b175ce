// The main window. Hardened webPreferences (ENGINEERING.md §7); the page comes from app://
// (protocol.ts) or, in `electron-vite dev`, from the loopback dev server.
// Its size, position and maximized state come from window-state.ts (placeWindow).
import { join } from "node:path";
import { app, BrowserWindow, nativeTheme } from "electron";
import { APP_ENTRY_URL } from "./protocol.ts";
import { devServerUrl, trustWebContents } from "./security.ts";
import type { SizeLimits, WindowPlacement } from "./window-state.ts";

/** The first window's size, and the smallest the layout works at. */
export const WINDOW_SIZE: SizeLimits = { width: 1200, height: 800, minWidth: 640, minHeight: 420 };

export interface WindowPaths {
  /** Absolute path of the built preload (out/preload/index.cjs). */
  preload: string;
}

export function createMainWindow(
  paths: WindowPaths,
  placement: WindowPlacement = { ...WINDOW_SIZE, maximized: false },
  /** `#install?…`: an install link the page opens its dialog for. */
  fragment = "",
): BrowserWindow {
  const win = new BrowserWindow({
    title: "Islet",
    ...(placement.x !== undefined && placement.y !== undefined
      ? { x: placement.x, y: placement.y }
      : { center: true }),
    width: placement.width,
    height: placement.height,
    minWidth: WINDOW_SIZE.minWidth,
    minHeight: WINDOW_SIZE.minHeight,
    show: false,
    // Matches the renderer's background so there is no white flash before first paint.
    backgroundColor: nativeTheme.shouldUseDarkColors ? "#15171c" : "#f6f7f9",
    autoHideMenuBar: process.platform !== "darwin",
    webPreferences: {
      preload: paths.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
      devTools: !app.isPackaged,
    },
  });
  trustWebContents(win.webContents);
  win.once("ready-to-show", () => {
    if (placement.maximized) win.maximize();
    win.show();
  });

  const url = (devServerUrl() ?? APP_ENTRY_URL) + fragment;
  win.loadURL(url).catch((error: unknown) => {
    console.error(`[islet] could not load ${url}:`, error);
  });
  return win;
}

export function preloadPath(mainDir: string): string {
  return join(mainDir, "../preload/index.cjs");
}
