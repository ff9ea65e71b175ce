// The application menu: the usual menus and accelerators of a desktop app (the app menu on macOS;
// File, Edit, View, Window, Help). Roles give Electron's own behaviour and platform accelerators.
// Only a type comes from 'electron', so the template is built and tested under plain Node.
import type { MenuItemConstructorOptions } from "electron";
import type { MenuCommand } from "../bridge/contract.ts";

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Unpackaged (development): reload and the developer tools are offered. */
  dev: boolean;
  appName: string;
  /** Shows one of the home's folders in the file manager (Help menu). */
  showFolder(which: "plugins" | "sessions"): void;
  /** Hands a command to the focused window's page (New Chat, Settings…). */
  command(command: MenuCommand): void;
}

export function menuTemplate(opts: MenuOptions): MenuItemConstructorOptions[] {
  const mac = opts.platform === "darwin";
  const sep: MenuItemConstructorOptions = { type: "separator" };
  const menus: MenuItemConstructorOptions[] = [];
  const settings: MenuItemConstructorOptions = {
    label: mac ? "Settings…" : "&Settings",
    accelerator: "CmdOrCtrl+,",
    click: () => opts.command("settings"),
  };
  const newChat: MenuItemConstructorOptions = {
    label: "&New Chat",
    accelerator: "CmdOrCtrl+N",
    click: () => opts.command("new-chat"),
  };
  if (mac)
    menus.push({
      label: opts.appName,
      submenu: [
        { role: "about" },
        sep,
        settings,
        sep,
        { role: "services" },
        sep,
        { role: "hide" },
        { role: "hideOthers" },
        { role: "unhide" },
        sep,
        { role: "quit" },
      ],
    });
  menus.push({
    label: "&File",
    submenu: mac
      ? [newChat, sep, { role: "close" }]
      : [newChat, sep, settings, sep, { role: "close" }, sep, { role: "quit" }],
  });
  menus.push({
    label: "&Edit",
    submenu: [
      { role: "undo" },
      { role: "redo" },
      sep,
      { role: "cut" },
      { role: "copy" },
      { role: "paste" },
      ...(mac ? [{ role: "pasteAndMatchStyle" } as const] : []),
      { role: "delete" },
      sep,
      { role: "selectAll" },
    ],
  });
  menus.push({
    label: "&View",
    submenu: [
      ...(opts.dev
        ? [
            { role: "reload" } as const,
            { role: "forceReload" } as const,
            { role: "toggleDevTools" } as const,
            sep,
          ]
        : []),
      { role: "resetZoom" },
      { role: "zoomIn" },
      { role: "zoomOut" },
      sep,
      { role: "togglefullscreen" },
    ],
  });
  menus.push({
    label: "&Window",
    submenu: mac
      ? [{ role: "minimize" }, { role: "zoom" }, sep, { role: "front" }]
      : [{ role: "minimize" }, { role: "close" }],
  });
  menus.push({
    role: "help",
    label: "&Help",
    submenu: [
      { label: "Show Plugins Folder", click: () => opts.showFolder("plugins") },
      { label: "Show Sessions Folder", click: () => opts.showFolder("sessions") },
      ...(mac ? [] : [sep, { role: "about" } as const]),
    ],
  });
  return menus;
}
