// A small in-memory stand-in for the parts of 'electron' the shell uses, so main/electron/ can be
// exercised under plain Node (no Electron binary on build machines). Loaded in place of
// 'electron' through a module resolve hook (see shell.test.ts); it records what the shell did.
import { EventEmitter } from "node:events";

type Handler = (...args: unknown[]) => unknown;

export const recorded = {
  order: [] as string[],
  privileges: [] as unknown[],
  protocolHandlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
  ipcHandlers: new Map<string, Handler>(),
  opened: [] as string[],
  permissionRequest: null as Handler | null,
  permissionCheck: null as Handler | null,
  errors: [] as string[],
  /** What our windows were sent: [channel, ...args]. */
  sent: [] as unknown[][],
  forked: [] as string[],
  /** What the preload put on `window` with contextBridge.exposeInMainWorld. */
  exposed: {} as Record<string, unknown>,
  /** The template of the application menu, once set. */
  menu: null as unknown[] | null,
  /** Folders shell.openPath was asked to show. */
  openedPaths: [] as string[],
  /** app.setAsDefaultProtocolClient calls: [scheme, path?, args?]. */
  protocolClients: [] as unknown[][],
};

/** How the fake sandbox probe (utilityProcess.fork) ends; tests set it before `ready`. */
export const probe = {
  outcome: { message: { ok: true } } as { message: unknown } | { exit: number },
  userData: "",
};

let ready = false;
let resolveReady: () => void = () => {};
const readyPromise = new Promise<void>((resolve) => {
  resolveReady = resolve;
});

class FakeApp extends EventEmitter {
  isPackaged = false;
  private name = "islet";
  setName(name: string): void {
    recorded.order.push("setName");
    this.name = name;
  }
  getName(): string {
    return this.name;
  }
  getVersion(): string {
    return "0.1.0";
  }
  getPath(name: string): string {
    if (name !== "userData" || probe.userData === "")
      throw new Error(`fake electron: app.getPath(${name}) is not set up`);
    return probe.userData;
  }
  setPath(name: string, value: string): void {
    recorded.order.push(`setPath:${name}`);
    if (name === "userData") probe.userData = value;
  }
  getAppPath(): string {
    return "/fake/app";
  }
  enableSandbox(): void {
    recorded.order.push(ready ? "enableSandbox-after-ready" : "enableSandbox");
  }
  setAsDefaultProtocolClient(...args: unknown[]): boolean {
    recorded.protocolClients.push(args);
    return true;
  }
  requestSingleInstanceLock(): boolean {
    recorded.order.push("requestSingleInstanceLock");
    return true;
  }
  whenReady(): Promise<void> {
    return readyPromise;
  }
  isReady(): boolean {
    return ready;
  }
  /** Like Electron: `before-quit` first; a listener that prevents it keeps the app running. */
  quit(): void {
    let prevented = false;
    this.emit("before-quit", { preventDefault: () => (prevented = true) });
    recorded.order.push(prevented ? "quit-held" : "quit");
  }
  exit(code: number): void {
    recorded.order.push(`exit:${code}`);
  }
}

export const app = new FakeApp();

export function emitReady(): void {
  ready = true;
  resolveReady();
  app.emit("ready");
}

let nextId = 1;

export class FakeFrame {
  parent: FakeFrame | null = null;
  origin: string;
  constructor(origin: string) {
    this.origin = origin;
  }
}

export class FakeWebContents extends EventEmitter {
  id = nextId++;
  mainFrame = new FakeFrame("null");
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  /** What this webContents was sent: [channel, ...args]. */
  sent: unknown[][] = [];
  private destroyed = false;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error("fake electron: send to a destroyed webContents");
    recorded.sent.push([channel, ...args]);
    this.sent.push([channel, ...args]);
    if (renderer.contents === this) renderer.deliver(channel, args);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isLoading(): boolean {
    return false;
  }
  /** The window closed: Electron emits "destroyed" once. */
  destroy(): void {
    this.destroyed = true;
    this.emit("destroyed");
  }
}

/**
 * The renderer side for preload tests: ipcRenderer acts as the page in `renderer.contents`
 * (its main frame is the sender of every invoke), and contextBridge records what is exposed.
 */
export const renderer = {
  contents: null as FakeWebContents | null,
  listeners: new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>(),
  deliver(channel: string, args: unknown[]): void {
    for (const listener of this.listeners.get(channel) ?? []) listener({}, ...args);
  },
};

export const ipcRenderer = {
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    const contents = renderer.contents;
    const handler = recorded.ipcHandlers.get(channel);
    if (!contents || !handler) throw new Error(`fake electron: nothing handles ${channel}`);
    // Like Electron, only the message of a handler's error reaches the page.
    try {
      return await handler({ sender: contents, senderFrame: contents.mainFrame }, ...args);
    } catch (err) {
      throw new Error(
        `Error invoking remote method '${channel}': Error: ${(err as Error).message}`,
        { cause: err },
      );
    }
  },
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void {
    const set = renderer.listeners.get(channel) ?? new Set();
    set.add(listener);
    renderer.listeners.set(channel, set);
  },
  off(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void {
    renderer.listeners.get(channel)?.delete(listener);
  },
};

export const contextBridge = {
  exposeInMainWorld(key: string, api: unknown): void {
    recorded.exposed[key] = api;
  },
};

export class BrowserWindow extends EventEmitter {
  static all: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.all;
  }
  /** No window has the OS focus in tests; the app falls back to its main window. */
  static getFocusedWindow(): BrowserWindow | null {
    return null;
  }
  options: Record<string, unknown>;
  webContents = new FakeWebContents();
  loadedUrl = "";
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    const n = (key: string) => (typeof options[key] === "number" ? (options[key] as number) : 0);
    this.normalBounds = { x: n("x"), y: n("y"), width: n("width"), height: n("height") };
    BrowserWindow.all.push(this);
    app.emit("web-contents-created", {}, this.webContents);
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    const origin = new URL(url).origin;
    this.webContents.mainFrame.origin = origin === "null" ? "app://islet" : origin;
    return Promise.resolve();
  }
  /** Bounds as the window manager keeps them; tests move the window by setting this. */
  normalBounds = { x: 0, y: 0, width: 0, height: 0 };
  maximized = false;
  destroyed = false;
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    return { ...this.normalBounds };
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  maximize(): void {
    this.maximized = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return false;
  }
  /** How often the window was brought to the front. */
  focused = 0;
  restore(): void {}
  show(): void {}
  focus(): void {
    this.focused++;
  }
}

export const protocol = {
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    recorded.order.push(ready ? "registerSchemes-after-ready" : "registerSchemes");
    recorded.privileges.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    recorded.protocolHandlers.set(scheme, handler);
  },
};

export const ipcMain = {
  handle(channel: string, handler: Handler): void {
    recorded.ipcHandlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    recorded.ipcHandlers.delete(channel);
  },
  /** electron-store listens for its renderer-side helper; no renderer here asks. */
  on(): void {},
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler(handler: Handler): void {
      recorded.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler: Handler): void {
      recorded.permissionCheck = handler;
    },
    setDevicePermissionHandler(): void {},
    setDisplayMediaRequestHandler(): void {},
  },
};

export const shell = {
  openExternal(url: string): Promise<void> {
    recorded.opened.push(url);
    return Promise.resolve();
  },
  openPath(path: string): Promise<string> {
    recorded.openedPaths.push(path);
    return Promise.resolve("");
  },
};

/** Two displays side by side: the primary 1920×1080 (minus a top bar), a 1280×1024 to its right. */
const displays = [
  { id: 1, workArea: { x: 0, y: 25, width: 1920, height: 1055 } },
  { id: 2, workArea: { x: 1920, y: 0, width: 1280, height: 1024 } },
];

export const screen = {
  getPrimaryDisplay: () => displays[0],
  getAllDisplays: () => displays,
};

export const Menu = {
  buildFromTemplate(template: unknown[]): { template: unknown[] } {
    return { template };
  },
  setApplicationMenu(menu: { template: unknown[] } | null): void {
    recorded.menu = menu?.template ?? null;
  },
};

export const dialog = {
  showErrorBox(title: string, message: string): void {
    recorded.errors.push(`${title}: ${message}`);
  },
};

export const nativeTheme: {
  shouldUseDarkColors: boolean;
  themeSource: "system" | "light" | "dark";
} = { shouldUseDarkColors: false, themeSource: "system" };

class FakeUtilityProcess extends EventEmitter {
  kill(): boolean {
    return true;
  }
}

export const utilityProcess = {
  fork(modulePath: string): FakeUtilityProcess {
    recorded.forked.push(modulePath);
    const child = new FakeUtilityProcess();
    const outcome = probe.outcome;
    setImmediate(() => {
      if ("message" in outcome) child.emit("message", outcome.message);
      else child.emit("exit", outcome.exit);
    });
    return child;
  },
};

/** No keychain in the fake: the app runs without stored keys (env and env file only). */
export const safeStorage = {
  isAsyncEncryptionAvailable: (): Promise<boolean> => Promise.resolve(false),
  getSelectedStorageBackend: (): string => "unknown",
};

/** Electron is CommonJS: `import electron from "electron"` (electron-store does) gets all of it. */
export default {
  app,
  ipcMain,
  ipcRenderer,
  contextBridge,
  BrowserWindow,
  protocol,
  session,
  shell,
  dialog,
  nativeTheme,
  utilityProcess,
  safeStorage,
};
