// Electron app lifecycle: single-instance lock, sandbox for every renderer, app:// scheme,
// session and navigation hardening, the IPC bridge seam, the application menu, the main window
// (where it was last), islet://install links, and the engine closed before quitting.
// Imported (for its side effects) by main/index.ts, the bundle entry.
import { join } from "node:path";
import { app, BrowserWindow, dialog, Menu, screen, session, shell } from "electron";
import type { BridgeHost } from "../bridge/host.ts";
import { registerBridge, type RegisteredBridge } from "./bridge.ts";
import { dialogQuestions } from "./dialog-questions.ts";
import { startEngineHost } from "./engine-host.ts";
import { listenForInstallLinks } from "./install-link.ts";
import { launchOverrides } from "./launch-env.ts";
import { handleAppScheme, registerAppSchemePrivileges } from "./protocol.ts";
import { hardenSession, installGlobalGuards } from "./security.ts";
import { menuTemplate } from "./menu.ts";
import { closeBeforeQuit } from "./quit.ts";
import { createMainWindow, preloadPath, WINDOW_SIZE } from "./window.ts";
import { keepWindowState, placeWindow, readWindowState } from "./window-state.ts";

// In the bundle this file lives at out/main/index.js: siblings are out/preload, out/renderer.
const mainDir = import.meta.dirname;
const rendererRoot = join(mainDir, "../renderer");

let mainWindow: BrowserWindow | null = null;
let bridge: RegisteredBridge | null = null;
/** An install link's query that came before the window: the window opens with it. */
let pendingLink: string | null = null;

/** This launch's user-data folder and model from the environment (e2e specs; launch-env.ts). */
const overrides = launchOverrides(process.env);

function openMainWindow(): void {
  const stateFile = join(app.getPath("userData"), "window-state.json");
  const primary = screen.getPrimaryDisplay();
  const others = screen.getAllDisplays().filter((d) => d.id !== primary.id);
  const placement = placeWindow(
    readWindowState(stateFile),
    [primary, ...others].map((d) => d.workArea),
    WINDOW_SIZE,
  );
  const link = pendingLink === null ? "" : `#install?${pendingLink}`;
  pendingLink = null;
  const win = createMainWindow({ preload: preloadPath(mainDir) }, placement, link);
  keepWindowState(win, stateFile, {
    onError: (error) => console.warn(`[islet] could not save the window's place: ${error.message}`),
  });
  win.on("closed", () => {
    if (mainWindow === win) mainWindow = null;
  });
  mainWindow = win;
}

function focusMainWindow(): void {
  // A second launch before ours is ready: start() opens the window anyway.
  if (!app.isReady()) return;
  if (mainWindow === null) {
    openMainWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

/** The page asks the engine to check the link and asks the person; nothing installs here. */
function openInstallLink(query: string | null, href: string): void {
  if (query === null) {
    console.warn(`[islet] ignored ${href.slice(0, 80)}: Islet opens only islet://install?… links`);
    return;
  }
  const win = mainWindow;
  if (!app.isReady() || win === null || bridge === null) {
    pendingLink = query;
    return;
  }
  const send = () => bridge?.emitTo(win.webContents, "app/installLink", { query });
  if (win.webContents.isLoading()) win.webContents.once("did-finish-load", send);
  else send();
}

function fail(error: unknown): void {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error("[islet] startup failed:", message);
  if (app.isReady()) dialog.showErrorBox("Islet could not start", message);
  app.exit(1);
}

/** The engine behind the bridge; started once the app is ready (start()). */
let engineHost: Promise<BridgeHost> | null = null;

/** `--islet-smoke=<json>`: the headless smoke run instead of a window (main/electron/smoke.ts). */
const smokeArg = process.argv.find((a) => a.startsWith("--islet-smoke="));

async function start(): Promise<void> {
  await app.whenReady();
  if (smokeArg) {
    const { runSmoke } = await import("./smoke.ts");
    await runSmoke(
      JSON.parse(smokeArg.slice("--islet-smoke=".length)) as Parameters<typeof runSmoke>[0],
    );
    return;
  }
  hardenSession(session.defaultSession);
  handleAppScheme(rendererRoot);
  // The window loads while the probe and the plugins do; bridge calls wait for the engine.
  engineHost = startEngineHost(
    { flags: overrides.flags },
    dialogQuestions(() => mainWindow),
  );
  engineHost.catch((error: unknown) =>
    console.error("[islet] the engine did not start:", (error as Error).message),
  );
  const registered = registerBridge(engineHost);
  bridge = registered;
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        platform: process.platform,
        dev: !app.isPackaged,
        appName: app.getName(),
        showFolder: (which) => void showHomeFolder(which),
        command: (command) => {
          const target = BrowserWindow.getFocusedWindow() ?? mainWindow;
          if (target && !target.isDestroyed())
            registered.emitTo(target.webContents, "app/menu", { command });
        },
      }),
    ),
  );
  openMainWindow();
}

async function showHomeFolder(which: "plugins" | "sessions"): Promise<void> {
  if (engineHost === null) return;
  const folder = join((await engineHost).engine.homes.global, which);
  const problem = await shell.openPath(folder);
  if (problem !== "") console.warn(`[islet] could not open ${folder}: ${problem}`);
}

// Everything below must happen before `ready`.
app.setName("Islet");
// Before the single-instance lock, which lives in the user-data folder.
if (overrides.userDataDir) app.setPath("userData", overrides.userDataDir);
app.enableSandbox();
registerAppSchemePrivileges();

if (!app.requestSingleInstanceLock()) {
  // Another Islet is running; it gets our argv through `second-instance` and comes forward.
  app.quit();
} else {
  installGlobalGuards();
  // A second launch (with or without a link in its argv) and macOS's open-url come forward here.
  pendingLink = listenForInstallLinks(app, {
    defaultApp: process.defaultApp === true,
    execPath: process.execPath,
    argv: process.argv,
    focus: focusMainWindow,
    open: openInstallLink,
  });
  app.on("activate", () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) openMainWindow();
  });
  app.on("window-all-closed", () => {
    if (process.platform !== "darwin") app.quit();
  });
  closeBeforeQuit(
    app,
    async () => {
      if (engineHost !== null) await (await engineHost).close();
    },
    { log: (line) => console.error(`[islet] ${line}`) },
  );
  start().catch(fail);
}
