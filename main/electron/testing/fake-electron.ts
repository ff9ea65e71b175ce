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
  getAppPath(): string {
    return "/fake/app";
  }
  enableSandbox(): void {
    recorded.order.push(ready ? "enableSandbox-after-ready" : "enableSandbox");
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
  quit(): void {
    recorded.order.push("quit");
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
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    recorded.sent.push([channel, ...args]);
  }
}

export class BrowserWindow extends EventEmitter {
  static all: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.all;
  }
  options: Record<string, unknown>;
  webContents = new FakeWebContents();
  loadedUrl = "";
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    BrowserWindow.all.push(this);
    app.emit("web-contents-created", {}, this.webContents);
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    const origin = new URL(url).origin;
    this.webContents.mainFrame.origin = origin === "null" ? "app://islet" : origin;
    return Promise.resolve();
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  show(): void {}
  focus(): void {}
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
};

export const dialog = {
  showErrorBox(title: string, message: string): void {
    recorded.errors.push(`${title}: ${message}`);
  },
};

export const nativeTheme = { shouldUseDarkColors: false };

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
