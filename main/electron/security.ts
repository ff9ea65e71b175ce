// Hardening that applies to every webContents and session (ENGINEERING.md §7):
// navigation and window.open locked (vetted https links go to the OS browser), no <webview>,
// permissions denied by default, and the sender check every IPC handler runs.
import { app, shell, type IpcMainInvokeEvent, type Session, type WebContents } from "electron";
import { APP_ORIGIN } from "./protocol.ts";
import { isExternalLink, loopbackHttpUrl, originOf } from "./url-guards.ts";

/** Dev only: electron-vite's dev server URL; never honoured in a packaged app. */
export function devServerUrl(): string | null {
  return app.isPackaged ? null : loopbackHttpUrl(process.env["ELECTRON_RENDERER_URL"]);
}

/** The only origin allowed to run our UI and call the bridge. */
export function rendererOrigin(): string {
  const dev = devServerUrl();
  return dev === null ? APP_ORIGIN : new URL(dev).origin;
}

// The webContents of the windows we created, by id; IPC from anything else is refused.
const trustedContents = new Map<number, WebContents>();

export function trustWebContents(contents: WebContents): void {
  const id = contents.id;
  trustedContents.set(id, contents);
  contents.once("destroyed", () => trustedContents.delete(id));
}

/** Our own windows' contents: the only ones pushed bridge events reach. */
export function trustedWebContents(): WebContents[] {
  return [...trustedContents.values()];
}

/**
 * True when an IPC call comes from the main frame of one of our windows showing our origin.
 * `senderFrame` is null when the frame navigated away or was destroyed meanwhile.
 */
export function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  if (frame === null) return false;
  if (!trustedContents.has(event.sender.id)) return false;
  if (frame !== event.sender.mainFrame || frame.parent !== null) return false;
  return frame.origin === rendererOrigin();
}

function openExternally(url: string): void {
  if (!isExternalLink(url)) return;
  shell.openExternal(url).catch((error: unknown) => {
    console.error(`[islet] could not open ${url} in the system browser:`, error);
  });
}

function lockDown(contents: WebContents): void {
  // In-page navigation elsewhere is never allowed; a clicked https link opens in the browser.
  contents.on("will-navigate", (event, url) => {
    event.preventDefault();
    openExternally(url);
  });
  contents.on("will-redirect", (event, url) => {
    if (originOf(url) !== rendererOrigin()) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: "deny" };
  });
  contents.on("will-attach-webview", (event) => event.preventDefault());
}

// Permissions our own page may use. Everything else (camera, mic, geolocation, notifications,
// HID/USB/serial, …) is denied. Clipboard write backs the "copy" buttons of the chat UI.
const ALLOWED_PERMISSIONS = new Set<string>(["clipboard-sanitized-write"]);

function permissionAllowed(permission: string, origin: string | undefined): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && origin === rendererOrigin();
}

export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(permissionAllowed(permission, originOf(details.requestingUrl)));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    permissionAllowed(permission, originOf(requestingOrigin)),
  );
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
}

/** Call once, before any window exists. */
export function installGlobalGuards(): void {
  app.on("web-contents-created", (_event, contents) => lockDown(contents));
}
